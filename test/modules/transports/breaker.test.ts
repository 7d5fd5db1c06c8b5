// The circuit breaker's shared state in the database, as every worker changes it: connection failures in a row make
// a transport DEGRADED, then DOWN at the fifth (one `transport.down` however many workers record failures at once); a
// message through it in between starts the count again; the back-off is 30 s, doubling after each failed probe up to
// 10 minutes; one probe per back-off, claimed by one worker (a claim whose worker died is claimable again); a probe
// that connects brings it back HEALTHY with one `transport.up`. The passage of a back-off is played by moving its end;
// no worker runs here, so the webhooks are read where they are queued.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/db/rows.ts';
import {
  claimProbe,
  recordConnectionFailure,
  recordHealthy,
  recordProbeFailure,
} from '../../../src/modules/transports/index.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

describe(`the circuit breaker's shared state (${testDatabaseKind})`, () => {
  let t: TestApp;
  let hook: WebhookReceiver;
  let auth: { authorization: string };

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    auth = (await t.createProject('Breaker')).auth;
    const hooked = await t.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: auth,
      payload: { url: hook.url, events: ['transport.down', 'transport.up'] },
    });
    expect(hooked.statusCode, hooked.body).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await hook?.close();
  });

  const addTransport = async (name: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/transports',
      headers: auth,
      payload: { type: 'smtp', name, config: { host: `${name}.example`, port: 587 } },
    });
    expect(res.statusCode, res.body).toBe(201);
    return String(res.json().data.id);
  };
  const view = async (id: string) =>
    (await t.app.inject({ method: 'GET', url: `/transports/${id}`, headers: auth })).json().data as Record<
      string,
      unknown
    >;
  /** The webhook events queued for this transport, by type. */
  const queued = async (id: string) => {
    const rows = rowsOf<{ event_type: string }>(
      await t.ctx.db.execute(sql`
        SELECT event_type FROM webhook_deliveries WHERE payload -> 'data' ->> 'transportId' = ${id}`),
    );
    return rows.map((r) => r.event_type).sort();
  };
  /** The back-off now running, in seconds (from the last failure to the probe's time). */
  const backoff = async (id: string) => {
    const row = rowsOf<{ s: number }>(
      await t.ctx.db.execute(sql`
        SELECT round(extract(epoch FROM (down_until - last_error_at)))::int AS s FROM transport_health
        WHERE key = ${id}`),
    )[0]!;
    return Number(row.s);
  };
  /** The back-off is over: its end moves to the past. */
  const backoffOver = (id: string) =>
    t.ctx.db.execute(sql`
      UPDATE transport_health SET down_until = clock_timestamp() - interval '1 second' WHERE key = ${id}`);

  it('is DEGRADED after a failed connection, DOWN at the fifth in a row; a message in between resets it', async () => {
    const id = await addTransport('flaky');
    const first = await recordConnectionFailure(t.ctx.db, id, 'connect ECONNREFUSED 192.0.2.1:587');
    expect(first).toEqual({ from: 'HEALTHY', to: 'DEGRADED' });
    const degraded = await view(id);
    expect(degraded).toMatchObject({ state: 'DEGRADED', lastError: 'connect ECONNREFUSED 192.0.2.1:587' });
    expect(degraded.since).not.toBeNull();
    expect(degraded.retryAt).toBeNull();
    for (let i = 0; i < 3; i++) expect(await recordConnectionFailure(t.ctx.db, id, 'timeout')).toBeNull();
    expect((await view(id)).state).toBe('DEGRADED');
    // A message went through: the count starts again, so four more failures are not yet five in a row.
    expect(await recordHealthy(t.ctx.db, id)).toEqual({ from: 'DEGRADED', to: 'HEALTHY' });
    expect((await view(id)).state).toBe('HEALTHY');
    for (let i = 0; i < 4; i++) await recordConnectionFailure(t.ctx.db, id, 'timeout');
    expect((await view(id)).state).toBe('DEGRADED');
    expect(await recordConnectionFailure(t.ctx.db, id, '421 4.3.2 Service not available')).toEqual({
      from: 'DEGRADED',
      to: 'DOWN',
    });
    const down = await view(id);
    expect(down).toMatchObject({ state: 'DOWN', lastError: '421 4.3.2 Service not available' });
    expect(Date.parse(String(down.retryAt))).toBeGreaterThan(Date.parse(String(down.since)));
    // Recovering from DEGRADED is no transport.up: only DOWN and back are webhooks.
    expect(await queued(id)).toEqual(['transport.down']);
  });

  it('goes DOWN once when many workers record failures at once: one transport.down', async () => {
    const id = await addTransport('crowded');
    const transitions = await Promise.all(
      Array.from({ length: 12 }, (_, i) => recordConnectionFailure(t.ctx.db, id, `connect ETIMEDOUT (${i})`)),
    );
    expect(transitions.filter((x) => x?.to === 'DOWN')).toHaveLength(1);
    expect((await view(id)).state).toBe('DOWN');
    expect(await queued(id)).toEqual(['transport.down']);
    const payloads = rowsOf<{ payload: Record<string, unknown> }>(
      await t.ctx.db.execute(sql`
        SELECT payload FROM webhook_deliveries WHERE payload -> 'data' ->> 'transportId' = ${id}`),
    ).map((r) => r.payload);
    expect(payloads).toEqual([
      {
        type: 'transport.down',
        createdAt: expect.any(String),
        data: {
          transportId: id,
          state: 'DOWN',
          lastError: expect.stringContaining('ETIMEDOUT'),
          retryAt: expect.any(String),
        },
      },
    ]);
  });

  it('backs off 30 s, doubling after each failed probe up to 10 minutes; one worker claims each probe', async () => {
    const id = await addTransport('dead');
    for (let i = 0; i < 5; i++) await recordConnectionFailure(t.ctx.db, id, 'connect ECONNREFUSED');
    expect(await backoff(id)).toBe(30);
    // Not before the back-off is over.
    expect(await claimProbe(t.ctx.db, id, 'worker-1')).toBe(false);
    const seen: number[] = [];
    for (let round = 0; round < 6; round++) {
      await backoffOver(id);
      const claims = await Promise.all(['worker-1', 'worker-2', 'worker-3'].map((w) => claimProbe(t.ctx.db, id, w)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      const owner = `worker-${claims.indexOf(true) + 1}`;
      await recordProbeFailure(t.ctx.db, id, owner, 'connect ECONNREFUSED');
      seen.push(await backoff(id));
      expect((await view(id)).state).toBe('DOWN');
    }
    expect(seen).toEqual([60, 120, 240, 480, 600, 600]);
    expect(await queued(id)).toEqual(['transport.down']);
  });

  it('lets another worker take a probe whose worker died; the dead one’s late report changes nothing', async () => {
    const id = await addTransport('orphaned');
    for (let i = 0; i < 5; i++) await recordConnectionFailure(t.ctx.db, id, 'connect ECONNREFUSED');
    await backoffOver(id);
    expect(await claimProbe(t.ctx.db, id, 'killed')).toBe(true);
    expect(await claimProbe(t.ctx.db, id, 'other')).toBe(false);
    // The claim's lease runs out (its worker was killed before it reported).
    await t.ctx.db.execute(sql`
      UPDATE transport_health SET probe_until = clock_timestamp() - interval '1 second' WHERE key = ${id}`);
    expect(await claimProbe(t.ctx.db, id, 'other')).toBe(true);
    const before = await backoff(id);
    await recordProbeFailure(t.ctx.db, id, 'killed', 'late');
    expect(await backoff(id)).toBe(before);
    expect((await view(id)).lastError).not.toBe('late');
  });

  it('comes back HEALTHY when its probe connects: one transport.up, the back-off starting again at 30 s', async () => {
    const id = await addTransport('revived');
    for (let i = 0; i < 5; i++) await recordConnectionFailure(t.ctx.db, id, 'connect ECONNREFUSED');
    await backoffOver(id);
    expect(await claimProbe(t.ctx.db, id, 'worker-1')).toBe(true);
    await recordProbeFailure(t.ctx.db, id, 'worker-1', 'connect ECONNREFUSED');
    await backoffOver(id);
    expect(await claimProbe(t.ctx.db, id, 'worker-2')).toBe(true);
    const back = await Promise.all([recordHealthy(t.ctx.db, id), recordHealthy(t.ctx.db, id)]);
    expect(back.filter((x) => x?.to === 'HEALTHY')).toHaveLength(1);
    expect(await view(id)).toMatchObject({ state: 'HEALTHY', retryAt: null });
    expect(await queued(id)).toEqual(['transport.down', 'transport.up']);
    for (let i = 0; i < 5; i++) await recordConnectionFailure(t.ctx.db, id, 'connect ECONNREFUSED');
    expect(await backoff(id)).toBe(30);
  });
});
