// Retention: the daily jobs drop the content of finished emails past RETENTION_EMAIL_CONTENT_DAYS (the records and
// their counts stay, the source answers 410) and delete events past RETENTION_EVENTS_DAYS, in batches.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailContentRetentionJob } from '../../../src/modules/delivery/delivery.retention.ts';
import { eventsRetentionJob } from '../../../src/modules/events/events.retention.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

type Auth = { authorization: string };
const manual = { id: 'manual', retryCount: 0, retryLimit: 0 };
const attachment = { filename: 'report.txt', content: Buffer.from('quarterly figures').toString('base64'), contentType: 'text/plain' };

/** Moves rows back in time, as the clock cannot be (ids of `table`). */
async function age(t: TestApp, table: 'emails' | 'events', ids: string[], days: number): Promise<void> {
  for (const id of ids) await t.ctx.db.execute(sql`UPDATE ${sql.identifier(table)} SET created_at = now() - make_interval(days => ${days}) WHERE id = ${id}::uuid`);
}

describe('email content retention', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  const get = (url: string, auth: Auth = sender.auth) => m.t.app.inject({ method: 'GET', url, headers: auth });
  const countRows = async (query: ReturnType<typeof sql>) => Number(((await m.t.ctx.db.execute(query)) as unknown as { rows: { n: string | number }[] }).rows[0]!.n);

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('keep.example.test');
  });
  afterAll(() => m.close());

  async function send(to: string[], extra: Record<string, unknown> = {}): Promise<string[]> {
    const res = await m.t.app.inject({ method: 'POST', url: '/v1/send', headers: sender.auth, payload: { to, from: 'app@keep.example.test', subject: 'Figures', body: '<p>The figures</p>', ...extra } });
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json().data.emails as { email: string }[]).map((e) => e.email);
    for (const id of ids) await m.waitForStatus(sender.auth, id, ['SENT']);
    return ids;
  }

  it('drops bodies and attachments of finished emails past the window, keeps records, counts and newer content', async () => {
    // Two messages of one send share their attachments: the old one's content goes, the set stays for the new one.
    const [oldShared, newShared] = await send(['a@dest.test', 'b@dest.test'], { attachments: [attachment] });
    const [oldAlone] = await send(['c@dest.test'], { attachments: [attachment] });
    const [recent] = await send(['d@dest.test']);
    await age(m.t, 'emails', [oldShared!, oldAlone!], 91);
    const listedBefore = (await get('/emails')).json().data.total as number;
    const statsBefore = (await get('/emails/stats?days=7')).json().data;
    expect(JSON.stringify(statsBefore)).toMatch(/"sent":[1-9]/);
    const sets = sql`SELECT count(DISTINCT set_id) AS n FROM email_attachments WHERE project_id = ${sender.project.id}::uuid`;
    expect(await countRows(sets)).toBe(2);

    await emailContentRetentionJob.handler({}, m.t.ctx, manual);

    for (const id of [oldShared!, oldAlone!]) {
      const source = await get(`/emails/${id}/source`);
      expect(source.statusCode).toBe(410);
      expect(source.json().error).toMatchObject({ code: 'GONE', message: expect.stringContaining('retention') });
      expect((await get(`/emails/${id}/content`)).statusCode).toBe(410);
      expect((await get(`/emails/${id}`)).json().data).toMatchObject({ id, status: 'SENT', to: expect.any(String) });
    }
    for (const id of [newShared!, recent!]) expect((await get(`/emails/${id}/source`)).statusCode).toBe(200);
    expect((await get(`/emails/${newShared}/source`)).json().data.source).toContain('report.txt');
    expect(await countRows(sets)).toBe(1);
    expect((await get('/emails')).json().data.total).toBe(listedBefore);
    expect((await get('/emails/stats?days=7')).json().data).toEqual(statsBefore);

    // A second run finds nothing more to drop; when the newer email ages too, the shared set goes with it.
    await age(m.t, 'emails', [newShared!], 91);
    await emailContentRetentionJob.handler({}, m.t.ctx, manual);
    expect(await countRows(sets)).toBe(0);
    expect((await get(`/emails/${recent}/source`)).statusCode).toBe(200);
  });

  it('leaves an unfinished email alone however old it is', async () => {
    const res = await m.t.app.inject({
      method: 'POST', url: '/v1/send', headers: sender.auth,
      payload: { to: 'later@dest.test', from: 'app@keep.example.test', subject: 'Later', body: '<p>Later</p>', scheduledAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.emails[0].email as string;
    await age(m.t, 'emails', [id], 200);
    await emailContentRetentionJob.handler({}, m.t.ctx, manual);
    expect((await get(`/emails/${id}/content`)).statusCode).toBe(200);
  });
});

describe('event retention', () => {
  it('keeps events forever by default, and deletes those past RETENTION_EVENTS_DAYS when set', async () => {
    for (const env of [{}, { RETENTION_EVENTS_DAYS: '30' }] as Record<string, string>[]) {
      const t = await createTestApp({ env });
      try {
        const p = await t.createProject();
        for (const event of ['signed_up', 'upgraded', 'paid']) {
          expect((await t.app.inject({ method: 'POST', url: '/v1/track', headers: p.auth, payload: { email: 'ann@dest.test', event } })).statusCode).toBe(200);
        }
        const list = async () => ((await t.app.inject({ method: 'GET', url: '/events?limit=50', headers: p.auth })).json().data.items as { id: string; name: string }[]);
        const byName = new Map((await list()).map((e) => [e.name, e.id]));
        await age(t, 'events', [byName.get('signed_up')!, byName.get('upgraded')!], 31);
        await eventsRetentionJob.handler({}, t.ctx, manual);
        const names = (await list()).map((e) => e.name).filter((n) => byName.has(n)).sort();
        expect(names).toEqual('RETENTION_EVENTS_DAYS' in env ? ['paid'] : ['paid', 'signed_up', 'upgraded']);
      } finally {
        await t.close();
      }
    }
  });
});
