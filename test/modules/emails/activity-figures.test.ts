// One definition for every figure: a campaign sent through the outbox counts as sent, not delivered, on its
// stats and on GET /emails/stats alike; a provider's delivery report (the path SES notifications take) makes
// both count it as delivered.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { findReportedEmail, recordDelivered } from '../../../src/modules/emails/index.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

describe('delivered, sent, opened: the same figures on the campaign stats and GET /emails/stats', () => {
  let m: MailFixture;
  let auth: { authorization: string };
  let projectId: string;

  beforeAll(async () => {
    m = await startMailFixture({ env: { MAIL_TRANSPORT: 'outbox' } });
    const sender = await m.verifiedDomain('figures.test');
    auth = sender.auth;
    projectId = sender.project.id;
    const rows = Array.from({ length: 5 }, (_, i) => ({
      email: `f${i}@dest.test`,
      defaultSubscribed: true,
      patch: {},
    }));
    await upsertContacts({ db: m.t.ctx.db, projectId, rows, consent: { type: 'api' } });
  });
  afterAll(() => m.close());

  const get = async (url: string) => {
    const res = await m.t.app.inject({ method: 'GET', url, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const pick = (s: Record<string, number>) => ({
    sent: s.sent,
    delivered: s.delivered,
    opened: s.opened,
    clicked: s.clicked,
    bounced: s.bounced,
    complained: s.complained,
  });

  it('counts outbox mail as sent with delivered 0, then as delivered once a provider reports it', async () => {
    const created = await m.t.app.inject({
      method: 'POST',
      url: '/campaigns',
      headers: auth,
      payload: { name: 'Figures', audienceType: 'ALL', subject: 'Hi', body: '<p>Hi</p>', from: 'news@figures.test' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    expect((await m.t.app.inject({ method: 'POST', url: `/campaigns/${id}/send`, headers: auth })).statusCode).toBe(
      202,
    );
    await until(async () => (await get(`/campaigns/${id}`)).status === 'SENT', 'campaign SENT', 30_000);
    // A test send is never counted.
    expect(
      (
        await m.t.app.inject({
          method: 'POST',
          url: `/campaigns/${id}/test`,
          headers: auth,
          payload: { emails: ['qa@dest.test'] },
        })
      ).statusCode,
    ).toBe(200);

    const before = await get(`/campaigns/${id}/stats`);
    expect(pick(before)).toEqual({ sent: 5, delivered: 0, opened: 0, clicked: 0, bounced: 0, complained: 0 });
    expect((await get('/emails/stats?days=7')).totals).toEqual(pick(before));

    const emails = (await get(`/emails?limit=100`)).items as { id: string; source: { type: string } }[];
    const campaignEmails = emails.filter((e) => e.source.type === 'CAMPAIGN');
    expect(campaignEmails).toHaveLength(5);
    for (const e of campaignEmails.slice(0, 2)) {
      await m.t.ctx.db.transaction(async (tx) => {
        const row = await findReportedEmail(tx, { emailId: e.id });
        expect(await recordDelivered(tx, row!, { source: 'ses', response: '250 ok' })).toBe(true);
      });
    }

    const after = await get(`/campaigns/${id}/stats`);
    expect(pick(after)).toEqual({ sent: 5, delivered: 2, opened: 0, clicked: 0, bounced: 0, complained: 0 });
    const stats = await get('/emails/stats?days=7');
    expect(stats.totals).toEqual(pick(after));
    expect((stats.days as { delivered: number }[]).reduce((n, d) => n + d.delivered, 0)).toBe(2);
  });

  it('counts the activity of emails created from 30 days before the first day on', async () => {
    const emails = (await get(`/emails?limit=100`)).items as { id: string; source: { type: string } }[];
    const [recent, old] = emails.filter((e) => e.source.type === 'CAMPAIGN');
    // Both opened today; one was created 10 days before the 7-day window, the other 40 days before it.
    await m.t.ctx.db.execute(
      sql`UPDATE emails SET opened_at = now(), created_at = now() - interval '16 days' WHERE id = ${recent!.id}::uuid`,
    );
    await m.t.ctx.db.execute(
      sql`UPDATE emails SET opened_at = now(), created_at = now() - interval '46 days' WHERE id = ${old!.id}::uuid`,
    );
    expect((await get('/emails/stats?days=7')).totals.opened).toBe(1);
  });
});
