// kill -9 during an A/B test's wait, and while a campaign is PAUSED: after the restart (and the resume) every
// recipient has exactly one email of the campaign, of one variant, and nothing is lost.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../src/db/client.ts';
import { crashWorld } from '../../support/crash.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { until } from '../../support/until.ts';

const RECIPIENTS = 300;
const SENDER = 'news@crash.test';

/** Emails of the campaign by status (and hold), as the database has them. */
async function statuses(db: Executor, campaignId: string): Promise<Record<string, number>> {
  const result = await db.execute(
    sql`SELECT status || coalesce('/' || status_reason, '') AS s, count(*)::int AS n FROM emails WHERE source_id =
      ${campaignId}::uuid GROUP BY 1`,
  );
  return Object.fromEntries(
    (result as unknown as { rows: { s: string; n: number }[] }).rows.map((r) => [r.s, Number(r.n)]),
  );
}

describe(`kill -9 during an A/B test (${testDatabaseKind})`, () => {
  const world = crashWorld(
    {
      PUBLIC_URL: 'https://mail.crash.test',
      SEND_RATE_PER_SECOND: '0',
      SEND_RETRY_DELAY_SECONDS: '1',
      SEND_RETRY_DELAY_MAX_SECONDS: '2',
      SEND_MAX_IN_FLIGHT: '10',
    },
    { split: true },
  );

  /** Per recipient, the subjects of the campaign's messages the sink got (its subjects start with `tag`). */
  const receivedOf = (tag: string) => {
    const per = new Map<string, string[]>();
    for (const msg of world.sink.messages) {
      const subject = /^Subject: (.*)$/m.exec(msg.raw.toString('latin1'))?.[1]?.trim() ?? '';
      if (subject.startsWith(tag)) per.set(msg.to[0]!, [...(per.get(msg.to[0]!) ?? []), subject]);
    }
    return per;
  };

  it(
    'resumes the wait after a restart, then sends the winner to the rest; and a ' +
      'PAUSED campaign stays paused until resumed',
    { timeout: 300_000 },
    async () => {
      const { h, sink, dns } = world;
      await h.start();
      const auth = await h.projectWithDomain(dns, 'crash.test');
      const rows = Array.from({ length: RECIPIENTS }, (_, i) => ({ email: `user${i}@dest.test` }));
      const upload = await h.api('POST', '/contacts/import', rows, auth);
      await until(
        async () =>
          (await h.api('GET', `/contacts/import/${upload.body.data.id}`, undefined, auth)).body.data.status ===
          'completed',
        'the import',
        120_000,
        250,
      );
      const campaign = async (tag: string, waitFor: string) => {
        const created = await h.api(
          'POST',
          '/campaigns',
          {
            name: tag,
            subject: `${tag}`,
            body: '<p>Hi</p><a href="{{unsubscribeUrl}}">u</a>',
            from: SENDER,
            audienceType: 'ALL',
            variants: [{ subject: `${tag}-A` }, { subject: `${tag}-B` }],
            abTest: { testPercent: 20, metric: 'opens', waitFor },
          },
          auth,
        );
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        return created.body.data.id as string;
      };
      const statusOf = async (id: string) =>
        (await h.api('GET', `/campaigns/${id}`, undefined, auth)).body.data.status as string;
      // Both kills below land when nothing of the campaign is in flight (checked at each kill), so no message can have
      // been handed over without its handoff being recorded: every recipient gets exactly one email, none twice.
      const expectOneEach = (tag: string) => {
        const per = receivedOf(tag);
        expect(per.size).toBe(RECIPIENTS);
        expect([...per.entries()].filter(([, subjects]) => subjects.length !== 1)).toEqual([]);
        return per;
      };

      // 1. kill -9 while TESTING waits for its winner.
      const t = await campaign('T', '20s');
      expect((await h.api('POST', `/campaigns/${t}/send`, undefined, auth)).status).toBe(202);
      await until(async () => receivedOf('T').size >= RECIPIENTS * 0.2, 'the test share', 60_000, 50);
      // The sink has them all before the sender records the last handoffs: kill only once every one is recorded, so
      // the kill lands in the wait and not in the test share's own handoffs.
      await until(
        async () => (await h.api('GET', `/campaigns/${t}/stats`, undefined, auth)).body.data.sent >= RECIPIENTS * 0.2,
        'the test share recorded as sent',
        60_000,
        50,
      );
      expect(await statusOf(t)).toBe('TESTING');
      await h.kill('SIGKILL');
      const atKill = await h.query((db) => statuses(db, t));
      expect(atKill['SENDING'] ?? 0).toBe(0);
      await h.start();
      await until(async () => (await statusOf(t)) === 'SENT', 'the rest sent after the restart', 120_000, 250);
      const tests = expectOneEach('T');
      const winner = await winnerOf(t);
      // The loser's half of the test share, and everyone else the winner.
      expect([...tests.values()].filter((s) => s[0] !== `T-${winner}`).length).toBe((RECIPIENTS * 0.2) / 2);

      // 2. kill -9 while PAUSED in the middle of the rest.
      sink.setReplyDelay(20);
      const p = await campaign('P', '1s');
      await h.api('POST', `/campaigns/${p}/send`, undefined, auth);
      await until(
        async () => (await statusOf(p)) === 'SENDING' && receivedOf('P').size >= RECIPIENTS * 0.4,
        'the rest under way',
        120_000,
        50,
      );
      expect((await h.api('POST', `/campaigns/${p}/pause`, undefined, auth)).status).toBe(200);
      // Asked over the API: on PGlite the data folder is the child's while it runs.
      await until(
        async () =>
          (await h.api('GET', `/emails?sourceId=${p}&status=SENDING&limit=1`, undefined, auth)).body.data.total === 0,
        'nothing of it in flight',
        60_000,
        100,
      );
      await h.kill('SIGKILL');
      const paused = await h.query((db) => statuses(db, p));
      expect(paused['QUEUED/CAMPAIGN_PAUSED'] ?? 0).toBeGreaterThan(0);
      expect(paused['SENDING'] ?? 0).toBe(0);
      const got = receivedOf('P').size;
      sink.setReplyDelay(0);
      await h.start();
      // Looking at once would prove little: the restarted worker may not have fetched anything yet. A campaign sent
      // after the restart is work queued after everything the paused one left (emails and jobs are handed out
      // oldest due first): once it is SENT, the worker has claimed what was due and run the jobs before it, and the
      // paused campaign must still be as it was.
      const after = await h.api(
        'POST',
        '/campaigns',
        {
          name: 'after',
          subject: 'Q',
          body: '<p>Hi</p><a href="{{unsubscribeUrl}}">u</a>',
          from: SENDER,
          audienceType: 'ALL',
        },
        auth,
      );
      expect((await h.api('POST', `/campaigns/${after.body.data.id}/send`, undefined, auth)).status).toBe(202);
      await until(
        async () => (await statusOf(after.body.data.id)) === 'SENT',
        'a campaign sent after the restart',
        120_000,
        250,
      );
      expect(await statusOf(p)).toBe('PAUSED');
      expect(receivedOf('P').size).toBe(got);
      expect((await h.api('GET', `/emails?sourceId=${p}&status=QUEUED&limit=1`, undefined, auth)).body.data.total).toBe(
        paused['QUEUED/CAMPAIGN_PAUSED'],
      );
      expect((await h.api('POST', `/campaigns/${p}/resume`, undefined, auth)).status).toBe(200);
      await until(async () => (await statusOf(p)) === 'SENT', 'SENT after the resume', 120_000, 250);
      expectOneEach('P');
      const stats = (await h.api('GET', `/campaigns/${p}/stats`, undefined, auth)).body.data;
      expect(stats).toMatchObject({ recipients: RECIPIENTS, sent: RECIPIENTS, failed: 0 });
      expect(
        stats.variants.map((v: { recipients: number }) => v.recipients).reduce((a: number, b: number) => a + b, 0),
      ).toBe(RECIPIENTS);

      async function winnerOf(id: string) {
        return (await h.api('GET', `/campaigns/${id}`, undefined, auth)).body.data.winnerVariantId as string;
      }
    },
  );
});
