// GET /emails/metrics: the campaign stats' figures over a period, per day (in the project's time zone), per
// campaign and per recipient domain, with machine opens and clicks told apart from people's, complaints fed back
// by mailbox providers, and a deleted campaign's emails still counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import { sql } from 'drizzle-orm';
import { startFeedbackReceiver, type FeedbackReceiver } from '../../../src/modules/feedback/index.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { arf } from '../../support/reports.ts';
import { until } from '../../support/until.ts';
import { expectValidation } from '../../support/envelope.ts';

const browser =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, ' +
  'like Gecko) Version/17.0 Safari/605.1.15';
const zero = {
  recipients: 0,
  sent: 0,
  delivered: 0,
  bounced: 0,
  complained: 0,
  opened: 0,
  humanOpened: 0,
  clicked: 0,
  humanClicked: 0,
  unsubscribed: 0,
  failed: 0,
};

describe('GET /emails/metrics', () => {
  let m: MailFixture;
  let feedback: FeedbackReceiver;
  let auth: { authorization: string };
  let campaignId: string;

  const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers = auth) =>
    m.t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const metrics = async (query: string, headers = auth) => {
    const res = await req('GET', `/emails/metrics?${query}`, undefined, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const hit = (method: 'GET' | 'HEAD', url: string, userAgent: string, ip = '203.0.113.50') =>
    m.t.app.inject({
      method,
      url,
      remoteAddress: '127.0.0.1',
      headers: { 'user-agent': userAgent, 'x-forwarded-for': ip },
    });
  const linkOf = async (to: string, kind: 'o' | 'c') => {
    const html = (await simpleParser(m.sink.messages.find((msg) => msg.to[0] === to)!.raw)).html as string;
    return html.match(new RegExp(`https://mail\\.herald\\.test(/t/${kind}/[^"]+)"`))![1]!;
  };
  const send = async (headers: { authorization: string }, from: string, to: string) => {
    const res = await req('POST', '/v1/send', { to, from, subject: 'Receipt', body: '<p>Thanks</p>' }, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.emails[0].email as string;
  };

  beforeAll(async () => {
    // RETURN_PATH_HOST: each message's MAIL FROM names it, so an abuse report sent there comes back to its email.
    m = await startMailFixture({ env: { RETURN_PATH_HOST: 'feedback.herald.test' } });
    feedback = await startFeedbackReceiver(m.t.ctx, 0);
    auth = (await m.verifiedDomain('example.test')).auth;
    for (const email of ['a@dest.test', 'b@other.test'])
      await req('POST', '/contacts', { email, data: { group: 'spring' } });
    const created = await req('POST', '/campaigns', {
      name: 'Spring',
      subject: 'Hello',
      from: 'news@example.test',
      audienceType: 'FILTERED',
      audienceFilter: { field: 'data.group', operator: 'equals', value: 'spring' },
      body: '<p><a href="https://example.test/offer">offer</a></p>',
    });
    campaignId = created.json().data.id;
    expect((await req('POST', `/campaigns/${campaignId}/send`)).statusCode).toBe(202);
    await until(
      async () => (await req('GET', `/campaigns/${campaignId}`)).json().data.status === 'SENT',
      'SENT',
      30_000,
    );
    await m.waitForStatus(auth, await send(auth, 'app@example.test', 'c@DEST.test'), ['SENT']);
    m.sink.failRecipient('gone@dest.test', { code: 550, message: '5.1.1 No such user' });
    await m.waitForStatus(auth, await send(auth, 'app@example.test', 'gone@dest.test'), ['BOUNCED']);
    // Clicks a minute after the handoff (an instant click would be a scanner's).
    await m.t.ctx.db.execute(
      sql`UPDATE emails SET sent_at = now() - interval '1 minute' WHERE source_id = ${campaignId}::uuid`,
    );
    // a: Apple Mail Privacy Protection prefetches the pixel, a scanner checks the link with HEAD.
    await hit('GET', await linkOf('a@dest.test', 'o'), 'Mozilla/5.0', '17.58.101.22');
    expect((await hit('HEAD', await linkOf('a@dest.test', 'c'), browser)).statusCode).toBe(302);
    // b: a person opens and clicks.
    await hit('GET', await linkOf('b@other.test', 'o'), browser);
    await hit('GET', await linkOf('b@other.test', 'c'), browser);
  }, 60_000);
  afterAll(async () => {
    await feedback.close();
    await m.close();
  });

  it("per campaign: the campaign stats' figures, transactional email as a group without a campaign", async () => {
    const data = await metrics('groupBy=campaign');
    expect(data.groups).toEqual([
      {
        campaignId,
        campaignName: 'Spring',
        ...zero,
        recipients: 2,
        sent: 2,
        opened: 2,
        humanOpened: 1,
        clicked: 2,
        humanClicked: 1,
        deliveryRate: 0,
        bounceRate: 0,
        complaintRate: 0,
        openRate: 0.5,
        clickRate: 0.5,
      },
      {
        campaignId: null,
        campaignName: null,
        ...zero,
        recipients: 2,
        sent: 2,
        bounced: 1,
        deliveryRate: 0,
        bounceRate: 0.5,
        complaintRate: 0,
        openRate: 0,
        clickRate: 0,
      },
    ]);
    expect(data.totals).toEqual({
      ...zero,
      recipients: 4,
      sent: 4,
      bounced: 1,
      opened: 2,
      humanOpened: 1,
      clicked: 2,
      humanClicked: 1,
      deliveryRate: 0,
      bounceRate: 0.25,
      complaintRate: 0,
      openRate: 0.25,
      clickRate: 0.25,
    });
    const stats = (await req('GET', `/campaigns/${campaignId}/stats`)).json().data;
    expect(data.groups[0]).toMatchObject({
      sent: stats.sent,
      opened: stats.opened,
      humanOpened: stats.humanOpened,
      openRate: stats.openRate,
      clickRate: stats.clickRate,
    });
  });

  it(
    "counts a complaint in complained and complaintRate, and a deleted campaign's " + 'emails, without its name',
    async () => {
      const { auth: own } = await m.verifiedDomain('gone.test');
      for (const email of ['x@dest.test', 'y@dest.test'])
        await req('POST', '/contacts', { email, data: { group: 'gone' } }, own);
      const created = await req(
        'POST',
        '/campaigns',
        {
          name: 'Gone',
          subject: 'Bye',
          body: '<p>Bye</p>',
          from: 'news@gone.test',
          audienceType: 'FILTERED',
          audienceFilter: { field: 'data.group', operator: 'equals', value: 'gone' },
        },
        own,
      );
      const id = created.json().data.id as string;
      expect((await req('POST', `/campaigns/${id}/send`, undefined, own)).statusCode).toBe(202);
      await until(
        async () => (await req('GET', `/campaigns/${id}`, undefined, own)).json().data.status === 'SENT',
        'SENT',
        30_000,
      );
      // x reports it as spam; the mailbox provider sends the report to the message's return path.
      const returnPath = m.sink.messages.find(
        (msg) => msg.to[0] === 'x@dest.test' && msg.from.endsWith('@bounces.gone.test'),
      )!.from;
      const client = nodemailer.createTransport({
        host: '127.0.0.1',
        port: feedback.port,
        secure: false,
        ignoreTLS: true,
      });
      await client.sendMail({
        envelope: { from: 'fbl@mailbox.test', to: [returnPath] },
        raw: arf({ to: returnPath, recipient: 'x@dest.test' }),
      });
      await until(
        async () => (await req('GET', `/campaigns/${id}/stats`, undefined, own)).json().data.complained === 1,
        'the complaint recorded',
      );

      const figures = { recipients: 2, sent: 2, complained: 1, complaintRate: 0.5 };
      expect((await metrics('groupBy=campaign', own)).groups).toEqual([
        expect.objectContaining({ campaignId: id, campaignName: 'Gone', ...figures }),
      ]);
      expect((await req('DELETE', `/campaigns/${id}`, undefined, own)).statusCode).toBe(200);
      const after = await metrics('groupBy=campaign', own);
      expect(after.groups).toEqual([expect.objectContaining({ campaignId: id, campaignName: null, ...figures })]);
      expect(after.totals).toMatchObject(figures);
      expect((await metrics('groupBy=domain', own)).groups).toEqual([
        expect.objectContaining({ domain: 'dest.test', ...figures }),
      ]);
    },
  );

  it("per recipient domain (case folded) and per day, today in the project's time zone", async () => {
    expect((await metrics('groupBy=domain')).groups).toEqual([
      expect.objectContaining({
        domain: 'dest.test',
        sent: 3,
        bounced: 1,
        bounceRate: 0.3333,
        opened: 1,
        humanOpened: 0,
        clicked: 1,
        humanClicked: 0,
        openRate: 0,
        clickRate: 0,
      }),
      expect.objectContaining({
        domain: 'other.test',
        sent: 1,
        opened: 1,
        humanOpened: 1,
        clicked: 1,
        humanClicked: 1,
        openRate: 1,
        clickRate: 1,
      }),
    ]);
    const day = await metrics('');
    expect(day).toMatchObject({ groupBy: 'day', timezone: 'UTC', totals: { sent: 4 } });
    // Today's UTC day (or yesterday's too, had the sends crossed midnight).
    const created = (await req('GET', '/emails?limit=10'))
      .json()
      .data.items.map((e: { createdAt: string }) => e.createdAt.slice(0, 10)) as string[];
    expect(day.groups.map((g: { date: string }) => g.date)).toEqual([...new Set(created)].sort());
    if (day.groups.length === 1) expect(day.groups[0]).toMatchObject({ sent: 4, bounced: 1, humanOpened: 1 });
    expect(Date.parse(day.to) - Date.parse(day.from)).toBe(30 * 86_400_000);
    // A period without email: no groups, all figures and rates 0.
    expect(await metrics('from=2020-01-01&to=2020-01-31&groupBy=campaign')).toMatchObject({
      from: '2020-01-01T00:00:00.000Z',
      to: '2020-02-01T00:00:00.000Z',
      groups: [],
      totals: { sent: 0, openRate: 0 },
    });
  });

  it("days (and dates given alone) follow the project's time zone", async () => {
    const { auth: tz } = await m.verifiedDomain('tz.test');
    const late = await send(tz, 'app@tz.test', 'x@dest.test');
    const later = await send(tz, 'app@tz.test', 'y@dest.test');
    await m.waitForStatus(tz, late, ['SENT']);
    await m.waitForStatus(tz, later, ['SENT']);
    // 23:30 and 01:30 the next day in Tokyo (UTC+9); the same UTC day.
    await m.t.ctx.db.execute(sql`UPDATE emails SET created_at = '2026-03-10T14:30:00Z' WHERE id = ${late}::uuid`);
    await m.t.ctx.db.execute(sql`UPDATE emails SET created_at = '2026-03-10T16:30:00Z' WHERE id = ${later}::uuid`);
    const days = async (query: string) =>
      (await metrics(query, tz)).groups.map((g: { date: string; sent: number }) => [g.date, g.sent]);

    expect(await days('from=2026-03-10&to=2026-03-11')).toEqual([['2026-03-10', 2]]);
    expect((await req('PATCH', '/settings', { timezone: 'Asia/Tokyo' }, tz)).statusCode).toBe(200);
    expect(await days('from=2026-03-10&to=2026-03-11')).toEqual([
      ['2026-03-10', 1],
      ['2026-03-11', 1],
    ]);
    expect(await metrics('from=2026-03-11&to=2026-03-11', tz)).toMatchObject({
      timezone: 'Asia/Tokyo',
      from: '2026-03-10T15:00:00.000Z',
      to: '2026-03-11T15:00:00.000Z',
      totals: { sent: 1 },
    });
    // Date-times are instants, whatever the time zone.
    expect(await days('from=2026-03-10T14:00:00Z&to=2026-03-10T15:00:00Z')).toEqual([['2026-03-10', 1]]);
    expect(await days('from=2026-03-10T16:00:00%2B00:00&to=2026-03-10T17:00:00Z')).toEqual([['2026-03-11', 1]]);
  });

  it(
    'refuses a bad grouping, unreadable dates, a period ending before it starts or ' + 'longer than 366 days (422)',
    async () => {
      expectValidation(await req('GET', '/emails/metrics?groupBy=week'), 'groupBy');
      expectValidation(await req('GET', '/emails/metrics?from=yesterday'), 'from');
      expectValidation(await req('GET', '/emails/metrics?from=2026-02-30'), 'from');
      expectValidation(await req('GET', '/emails/metrics?from=2026-01-01&to=2026-13-01'), 'to');
      expectValidation(await req('GET', '/emails/metrics?from=2026-03-10&to=2026-03-09'), 'to');
      expectValidation(await req('GET', '/emails/metrics?from=2026-03-10T12:00:00Z&to=2026-03-10T12:00:00Z'), 'to');
      expectValidation(await req('GET', '/emails/metrics?from=2025-01-01&to=2026-01-02'), 'to');
      expect((await req('GET', '/emails/metrics?from=2025-01-01&to=2026-01-01')).statusCode).toBe(200);
      expect((await m.t.app.inject({ method: 'GET', url: '/emails/metrics' })).statusCode).toBe(401);
    },
  );
});
