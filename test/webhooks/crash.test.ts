// CONTRACT §12: a webhook delivery is queued in the transaction of the change that caused it, so a process
// killed (SIGKILL) between the event and the delivery still delivers it after restart, with its webhook-id.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { ADMIN_TOKEN, APP_SECRET } from '../support/app.ts';
import { freePort, spawnHerald, type HeraldChild } from '../support/child.ts';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../support/database.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

describe(`webhooks survive kill -9 (${testDatabaseKind})`, () => {
  let dns: TestDnsServer;
  let db: TestDatabase | null = null;
  let child: HeraldChild | null = null;
  let hook: WebhookReceiver | null = null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-hookcrash-'));

  beforeAll(async () => {
    dns = await startDnsServer({});
    if (testDatabaseKind === 'postgres') db = await createTestDatabase();
  });
  afterAll(async () => {
    await child?.kill('SIGTERM');
    await hook?.close();
    await dns.close();
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers after restart an event committed before the kill', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const hookPort = await freePort(); // nothing listens there until after the kill
    const env = {
      DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, APP_SECRET, DNS_SERVERS: dns.address,
      WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'warn', ...(db ? { DATABASE_URL: db.location } : {}),
    };
    const api = async (method: string, url: string, payload?: unknown, auth = `Bearer ${ADMIN_TOKEN}`) => {
      const res = await fetch(`http://127.0.0.1:${port}${url}`, {
        method, headers: { authorization: auth, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
      });
      return (await res.json()) as { data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    child = await spawnHerald('serve', env);
    const auth = `Bearer ${(await api('POST', '/admin/projects', { name: 'hooks' })).data.secretKey}`;
    const domain = (await api('POST', '/domains', { domain: 'hooks.test' }, auth)).data;
    for (const r of domain.records.filter((rec: { type: string }) => rec.type === 'TXT')) dns.setRecords(r.name, [{ type: 'TXT', data: r.values ?? [r.value] }]);
    expect((await api('POST', `/domains/${domain.id}/verify`, undefined, auth)).data.status).toBe('VERIFIED');
    const endpoint = (await api('POST', '/webhooks', { url: `http://127.0.0.1:${hookPort}/hooks`, events: ['email.queued'] }, auth)).data;
    const sent = await api('POST', '/v1/send', { to: 'r@dest.test', from: 'a@hooks.test', subject: 'Hi', body: '<p>x</p>' }, auth);
    const emailId = sent.data.emails[0].email as string;
    await child.kill('SIGKILL');
    child = null;

    hook = await startWebhookReceiver({ port: hookPort });
    child = await spawnHerald('serve', env);
    const [received] = await hook.waitFor(1, 60_000, (w) => w.json.type === 'email.queued');
    expect(received!.json.data).toMatchObject({ emailId, to: 'r@dest.test' });
    expect(new Webhook(endpoint.secret).verify(received!.body, received!.headers as Record<string, string>)).toBeTruthy();
    for (let settled = false; !settled; await new Promise((r) => setTimeout(r, 100))) {
      const deliveries = (await api('GET', `/webhooks/${endpoint.id}/deliveries`, undefined, auth)).data;
      expect(deliveries.items).toHaveLength(1);
      expect(deliveries.items[0].id).toBe(received!.headers['webhook-id']);
      settled = deliveries.items[0].status === 'SUCCEEDED';
    }
  });
});
