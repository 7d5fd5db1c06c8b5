// A disabled project's webhooks are held, as its mail is: no attempt is made or counted while it is disabled —
// not even the next one of an endpoint being served when it was disabled — and they go out once it is enabled.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

type Project = Awaited<ReturnType<TestApp['createProject']>>;

describe(`held webhooks (${testDatabaseKind})`, () => {
  const env = { WEBHOOK_ALLOW_PRIVATE: 'true' };
  let api: TestApp;
  let worker: TestApp | null = null;
  let pausedHook: WebhookReceiver;
  let otherHook: WebhookReceiver;

  beforeAll(async () => {
    api = await createTestApp({ env });
    pausedHook = await startWebhookReceiver();
    otherHook = await startWebhookReceiver();
  });
  afterAll(async () => {
    pausedHook.release();
    await worker?.close();
    await api.close();
    await pausedHook.close();
    await otherHook.close();
  });

  async function withEndpoint(url: string): Promise<Project> {
    const project = await api.createProject();
    const res = await api.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: project.auth,
      payload: { url, events: ['contact.created'] },
    });
    expect(res.statusCode).toBe(201);
    return project;
  }
  async function event(project: Project, email: string): Promise<void> {
    const res = await api.app.inject({ method: 'POST', url: '/contacts', headers: project.auth, payload: { email } });
    expect(res.statusCode, res.body).toBe(201);
  }
  const setDisabled = async (project: Project, disabled: boolean) => {
    const res = await api.app.inject({
      method: 'PATCH',
      url: `/admin/projects/${project.id}`,
      headers: api.admin,
      payload: { disabled },
    });
    expect(res.statusCode).toBe(200);
  };
  /** The project's deliveries, read from the table (its key answers 403 while it is disabled). */
  async function deliveries(project: Project): Promise<{ email: string; status: string; attempts: number }[]> {
    const rows = (await api.ctx.db.execute(sql`
      SELECT payload->'data'->>'email' AS email, status, attempts FROM webhook_deliveries WHERE project_id =
        ${project.id}::uuid ORDER BY created_at, id`)) as unknown as {
      rows: { email: string; status: string; attempts: number }[];
    };
    return rows.rows.map((r) => ({ ...r, attempts: Number(r.attempts) }));
  }
  /** An event of the other project, delivered and settled: proof that the senders had a round since. */
  let others = 0;
  async function otherRoundTrip(other: Project): Promise<void> {
    await event(other, `other${++others}@dest.test`);
    await otherHook.waitFor(others);
    await until(
      async () => (await deliveries(other)).every((d) => d.status === 'SUCCEEDED'),
      "the other project's delivery settled",
    );
  }

  it("holds a disabled project's deliveries without attempting them, and sends them once it is enabled", async () => {
    const paused = await withEndpoint(pausedHook.url);
    const other = await withEndpoint(otherHook.url);
    await event(paused, 'p1@dest.test');
    await event(paused, 'p2@dest.test');
    await setDisabled(paused, true);

    const shared =
      api.testDb.kind === 'postgres' ? { database: api.testDb } : { database: api.testDb, handle: api.ctx.database };
    worker = await createTestApp({ ...shared, worker: true, env });
    await otherRoundTrip(other);
    await otherRoundTrip(other);
    expect(pausedHook.received).toHaveLength(0);
    expect(await deliveries(paused)).toEqual([
      { email: 'p1@dest.test', status: 'PENDING', attempts: 0 },
      { email: 'p2@dest.test', status: 'PENDING', attempts: 0 },
    ]);

    await setDisabled(paused, false);
    const got = await pausedHook.waitFor(2);
    expect(got.map((w) => w.json.data.email)).toEqual(['p1@dest.test', 'p2@dest.test']);
    await until(
      async () => (await deliveries(paused)).every((d) => d.status === 'SUCCEEDED' && d.attempts === 1),
      'the released deliveries settled',
    );

    // Disabled while its endpoint is being served: the attempt in flight ends, the next one waits.
    pausedHook.hold();
    await event(paused, 'p3@dest.test');
    await event(paused, 'p4@dest.test');
    await pausedHook.waitFor(3);
    await setDisabled(paused, true);
    pausedHook.release();
    await until(async () => (await deliveries(paused))[2]!.status === 'SUCCEEDED', 'the attempt in flight settled');
    await otherRoundTrip(other);
    expect(pausedHook.received).toHaveLength(3);
    expect((await deliveries(paused))[3]).toEqual({ email: 'p4@dest.test', status: 'PENDING', attempts: 0 });

    await setDisabled(paused, false);
    expect((await pausedHook.waitFor(4)).map((w) => w.json.data.email)).toEqual([
      'p1@dest.test',
      'p2@dest.test',
      'p3@dest.test',
      'p4@dest.test',
    ]);
  });
});
