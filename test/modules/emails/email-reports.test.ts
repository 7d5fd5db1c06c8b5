import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { expectError, expectValidation } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

type Sender = Awaited<ReturnType<MailFixture['verifiedDomain']>>;
type Day = {
  date: string;
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  complained: number;
};

describe('GET /emails/stats and GET /emails/{id}/source on the outbox transport', () => {
  let m: MailFixture;
  let sender: Sender;

  beforeAll(async () => {
    m = await startMailFixture({ env: { MAIL_TRANSPORT: 'outbox' } });
    sender = await m.verifiedDomain('reports.test');
  });
  afterAll(() => m.close());

  const get = (url: string, auth = sender.auth) => m.t.app.inject({ method: 'GET', url, headers: auth });
  const stats = async (days = 7) => {
    const res = await get(`/emails/stats?days=${days}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { from: string; to: string; days: Day[]; totals: Omit<Day, 'date'>; testSends: number };
  };
  const sendTracked = async (to: string[]) => {
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: {
        to,
        from: 'news@reports.test',
        subject: 'Report {{ email }}',
        body: '<p>Hi</p><p><a href="https://example.com/offer">Offer</a></p>',
        tracking: true,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json().data.emails as { email: string }[]).map((e) => e.email);
    for (const id of ids) await m.waitForStatus(sender.auth, id, ['SENT']);
    return ids;
  };
  /** The tracking links of a sent message, read from its source as a mail client would. */
  const linksOf = async (emailId: string) => {
    const html = String((await simpleParser((await get(`/emails/${emailId}/source`)).json().data.source)).html);
    const path = (re: RegExp) => new URL(re.exec(html)![1]!).pathname;
    return {
      open: path(/src="(https:\/\/mail\.herald\.test\/t\/o\/[^"]+)"/),
      click: path(/href="(https:\/\/mail\.herald\.test\/t\/c\/[^"]+)"/),
    };
  };

  it('counts a day of nothing as zeros, one entry per day up to today (UTC)', async () => {
    const s = await stats(7);
    const today = new Date().toISOString().slice(0, 10);
    expect(s.days).toHaveLength(7);
    expect(s.to).toBe(today);
    expect(s.days.at(-1)!.date).toBe(today);
    expect(s.from).toBe(s.days[0]!.date);
    expect(new Date(`${today}T00:00:00Z`).getTime() - new Date(`${s.from}T00:00:00Z`).getTime()).toBe(
      6 * 24 * 3600 * 1000,
    );
    expect(s.totals).toEqual({ sent: 0, delivered: 0, opened: 0, clicked: 0, bounced: 0, complained: 0 });
  });

  it('counts sent, opened and clicked emails per day, each email once however often it is opened', async () => {
    const [first] = await sendTracked(['one@dest.test', 'two@dest.test']);
    const before = await stats();
    expect(before.totals).toMatchObject({ sent: 2, opened: 0, clicked: 0 });
    // Both were sent on the day that ends the window (or, just past midnight UTC, the one before).
    expect(before.days.slice(-2).reduce((n, d) => n + d.sent, 0)).toBe(2);

    const links = await linksOf(first!);
    for (let i = 0; i < 3; i++) expect((await m.t.app.inject({ url: links.open })).statusCode).toBe(200);
    expect((await m.t.app.inject({ url: links.click })).statusCode).toBe(302);
    const after = await stats();
    expect(after.totals).toEqual({ sent: 2, delivered: 0, opened: 1, clicked: 1, bounced: 0, complained: 0 });
    expect(after.days.reduce((n, d) => n + d.opened, 0)).toBe(1);

    // Another project sees none of it.
    const other = await m.t.createProject('Other');
    expect((await get('/emails/stats', other.auth)).json().data.totals.sent).toBe(0);
  });

  it('gives test sends apart from the figures, so the figures and the email log reconcile', async () => {
    const before = await stats();
    const campaign = await m.t.app.inject({
      method: 'POST',
      url: '/campaigns',
      headers: sender.auth,
      payload: { name: 'Trial', audienceType: 'ALL', subject: 'Hi', body: '<p>Hi</p>', from: 'news@reports.test' },
    });
    expect(campaign.statusCode, campaign.body).toBe(201);
    const res = await m.t.app.inject({
      method: 'POST',
      url: `/campaigns/${campaign.json().data.id}/test`,
      headers: sender.auth,
      payload: { emails: ['tester@dest.test'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    await m.waitForStatus(sender.auth, res.json().data.emails[0].email, ['SENT']);

    const after = await stats();
    expect(after.testSends).toBe(before.testSends + 1);
    expect(after.totals).toEqual(before.totals);
    // The log lists every sent email: the figures' sent and the test sends together.
    const log = (await get('/emails?status=SENT&limit=100')).json().data as { total: number };
    expect(log.total).toBe(after.totals.sent + after.testSends);
  });

  it('takes 1 to 90 days (30 by default) and a secret key', async () => {
    expect((await stats(30)).days).toHaveLength(30);
    expect((await get('/emails/stats')).json().data.days as Day[]).toHaveLength(30);
    expectValidation(await get('/emails/stats?days=0'), 'days');
    expectValidation(await get('/emails/stats?days=91'), 'days');
    expectError(await m.t.app.inject({ url: '/emails/stats' }), 401, 'UNAUTHORIZED');
    const paths = (
      (await m.t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, { get?: unknown }> }
    ).paths;
    expect(paths['/emails/stats']?.get).toBeDefined();
    expect(paths['/emails/{id}/source']?.get).toBeDefined();
  });

  it('answers the DKIM-signed message the outbox wrote, only to its project', async () => {
    const [id] = await sendTracked(['source@dest.test']);
    const res = await get(`/emails/${id}/source`);
    expect(res.statusCode).toBe(200);
    const { source, rebuilt } = res.json().data as { id: string; source: string; rebuilt: boolean };
    expect(rebuilt).toBe(false);
    const parsed = await simpleParser(source);
    expect(parsed.subject).toBe('Report source@dest.test');
    expect(parsed.headers.get('dkim-signature')).toBeDefined();
    expect(parsed.messageId).toBe((await get(`/emails/${id}`)).json().data.messageId);

    const other = await m.t.createProject('Stranger');
    expectError(await get(`/emails/${id}/source`, other.auth), 404, 'NOT_FOUND');
    expectError(await get('/emails/not-an-id/source'), 404, 'NOT_FOUND');
  });

  it('builds the message again for an email the outbox never wrote (suppressed)', async () => {
    await m.t.app.inject({
      method: 'POST',
      url: '/suppressions',
      headers: sender.auth,
      payload: { email: 'blocked@dest.test' },
    });
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: { to: 'blocked@dest.test', from: 'news@reports.test', subject: 's', body: 'b' },
    });
    const id = res.json().data.emails[0].email as string;
    await m.waitForStatus(sender.auth, id, ['SUPPRESSED']);
    const data = (await get(`/emails/${id}/source`)).json().data as { source: string; rebuilt: boolean };
    expect(data.rebuilt).toBe(true);
    expect((await simpleParser(data.source)).to).toMatchObject({ text: 'blocked@dest.test' });
  });
});
