// RELIABILITY T2: /v1/send with an Idempotency-Key, the process killed (SIGKILL) after the commit and before
// the reply. The client retries the same request against the restarted process: it gets the stored answer
// (same email ids), and the recipient gets the message exactly once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, APP_SECRET } from '../support/app.ts';
import { freePort, spawnHerald, type HeraldChild } from '../support/child.ts';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../support/database.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';

describe(`idempotent /v1/send across a kill between commit and reply (${testDatabaseKind})`, () => {
  let dns: TestDnsServer;
  let sink: SmtpSink;
  let db: TestDatabase | null = null;
  let child: HeraldChild | null = null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-sendcrash-'));

  beforeAll(async () => {
    dns = await startDnsServer({});
    sink = await startSmtpSink();
    if (testDatabaseKind === 'postgres') db = await createTestDatabase();
  });
  afterAll(async () => {
    await child?.kill('SIGTERM');
    await sink.close();
    await dns.close();
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('replays the committed answer and sends once', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const env = {
      DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, APP_SECRET, DNS_SERVERS: dns.address, SMTP_URL: sink.url,
      SEND_RATE_PER_SECOND: '0', LOG_LEVEL: 'warn', ...(db ? { DATABASE_URL: db.location } : {}),
    };
    const call = (method: string, url: string, payload: unknown, headers: Record<string, string>) => fetch(`http://127.0.0.1:${port}${url}`, {
      method, headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
    });
    const api = async (method: string, url: string, payload?: unknown, auth = `Bearer ${ADMIN_TOKEN}`) => (await (await call(method, url, payload, { authorization: auth })).json()) as { data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

    child = await spawnHerald('serve', env);
    const auth = `Bearer ${(await api('POST', '/admin/projects', { name: 'crash' })).data.secretKey}`;
    const domain = (await api('POST', '/domains', { domain: 'crash.test' }, auth)).data;
    for (const r of domain.records.filter((rec: { type: string }) => rec.type === 'TXT')) dns.setRecords(r.name, [{ type: 'TXT', data: r.values ?? [r.value] }]);
    expect((await api('POST', `/domains/${domain.id}/verify`, undefined, auth)).data.status).toBe('VERIFIED');
    await child.kill('SIGTERM');

    // This process dies right after committing the send, before answering.
    child = await spawnHerald('serve', { ...env, HERALD_TEST_FAULT: 'kill-after-send-commit' });
    const request = { to: ['one@dest.test', 'two@dest.test'], from: 'hi@crash.test', subject: 'Once', body: '<p>once</p>' };
    const headers = { authorization: auth, 'idempotency-key': 'order-42' };
    await expect(call('POST', '/v1/send', request, headers)).rejects.toThrow();
    await child.kill('SIGKILL');

    child = await spawnHerald('serve', env);
    const retried = await call('POST', '/v1/send', request, headers);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    const ids = ((await retried.json()) as { data: { emails: { email: string }[] } }).data.emails.map((e) => e.email);
    expect(ids).toHaveLength(2);
    const listed = (await api('GET', '/emails?limit=100', undefined, auth)).data;
    expect(listed.items.map((e: { id: string }) => e.id).sort()).toEqual([...ids].sort());
    await sink.waitForMessages(2, 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(sink.messages.map((m) => m.to[0]).sort()).toEqual(['one@dest.test', 'two@dest.test']);
  });
});
