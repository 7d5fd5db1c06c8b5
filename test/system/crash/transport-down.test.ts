// A worker killed (SIGKILL) while the transport its mail is routed to is DOWN: the restarted worker reads the
// breaker's state from the database, keeps away from the dead transport (no connection to it before its probe is
// due) and carries on over the fallback; every recipient gets the message once, duplicates only from the messages in
// flight at the kill.
import { describe, expect, it } from 'vitest';
import { crashWorld } from '../../support/crash.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { startScriptedSmtp, type ScriptedSmtp } from '../../support/scripted-smtp.ts';
import { until } from '../../support/until.ts';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../../src/db/rows.ts';

describe(`a worker killed while a transport is down (${testDatabaseKind})`, () => {
  let a: ScriptedSmtp;
  let b: ScriptedSmtp;
  const world = crashWorld(async () => {
    a = await startScriptedSmtp();
    b = await startScriptedSmtp();
    return {
      SEND_RATE_PER_SECOND: '0',
      // The dead transport stays DOWN for the whole test: no probe reaches it.
      TRANSPORT_BACKOFF_SECONDS: '600',
      SEND_RETRY_DELAY_SECONDS: '1',
      SEND_RETRY_DELAY_MAX_SECONDS: '2',
      RATE_LIMIT_PER_MINUTE: '100000',
      SEND_MAX_IN_FLIGHT: '20',
    };
  });

  it('resumes on the fallback, each recipient mailed once', { timeout: 300_000 }, async () => {
    const { h, dns } = world;
    await h.start();
    const auth = await h.projectWithDomain(dns, 'crash.test');
    const ta = await h.api('POST', '/transports', { name: 'a', type: 'smtp', config: a.config }, auth);
    const tb = await h.api('POST', '/transports', { name: 'b', type: 'smtp', config: b.config }, auth);
    expect(ta.status, JSON.stringify(ta.body)).toBe(201);
    const aId = ta.body.data.id as string;
    const bId = tb.body.data.id as string;
    const routed = await h.api(
      'PUT',
      '/routing',
      { rules: [{ match: {}, transportId: aId, fallbackIds: [bId] }] },
      auth,
    );
    expect(routed.status, JSON.stringify(routed.body)).toBe(200);
    await a.set('greet421');

    const send = async (from: number, count: number) => {
      for (let i = from; i < from + count; i += 50) {
        const to = Array.from({ length: Math.min(50, from + count - i) }, (_, n) => `user${i + n}@dest.test`);
        const res = await h.api('POST', '/v1/send', { to, from: 'hi@crash.test', subject: 's', body: 'b' }, auth);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
    };
    await send(0, 50);
    await until(
      async () => (await h.api('GET', `/transports/${aId}`, undefined, auth)).body.data.state === 'DOWN',
      'a DOWN',
    );
    await until(() => b.messages.length >= 50, 'the first 50 at the fallback', 60_000);

    const total = 400;
    await send(50, total - 50);
    await until(() => b.messages.length >= 150, 'mail flowing over the fallback', 120_000, 10);
    const atKill = a.connections;
    await h.kill('SIGKILL');
    const inFlight = await h.query(async (db) =>
      Number(
        rowsOf<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM emails WHERE status = 'SENDING'`))[0]!
          .n,
      ),
    );
    await h.start();
    await until(
      async () => (await h.api('GET', '/emails?status=SENT&limit=1', undefined, auth)).body.data.total === total,
      'every email SENT',
      240_000,
      250,
    );
    const missing = Array.from({ length: total }, (_, i) => `user${i}@dest.test`).filter((r) => !b.perRecipient.has(r));
    expect(missing).toEqual([]);
    const duplicates = b.messages.length - b.perRecipient.size;
    expect(duplicates).toBeLessThanOrEqual(inFlight);
    expect(a.messages).toHaveLength(0);
    // The restarted worker knew it was DOWN: it did not try it again.
    expect(a.connections).toBe(atKill);
    expect((await h.api('GET', `/transports/${aId}`, undefined, auth)).body.data.state).toBe('DOWN');
    await a.close();
    await b.close();
  });
});
