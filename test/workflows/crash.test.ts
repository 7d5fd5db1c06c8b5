// A worker killed with SIGKILL while executions sit in a DELAY: after a restart they still complete, and every
// step runs once (one email per SEND_EMAIL step, one history entry per step). On PostgreSQL the API is this
// test process and a real `herald worker` child runs the engine; on PGlite a `herald serve` child does both.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, APP_SECRET, createTestApp, type TestApp } from '../support/app.ts';
import { freePort, spawnHerald, type HeraldChild } from '../support/child.ts';
import { testDatabaseKind } from '../support/database.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { eventually } from './fixture.ts';

const CONTACTS = 5;
const SENDER = 'hello@crash-flows.test';

interface Harness {
  api(method: string, url: string, payload?: unknown, auth?: string): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  start(): Promise<void>;
  kill(): Promise<void>;
  close(): Promise<void>;
}

async function harness(env: Record<string, string>): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-wf-crash-'));
  let child: HeraldChild | null = null;
  let t: TestApp | null = null;
  let port = 0;
  if (testDatabaseKind === 'postgres') t = await createTestApp({ env });
  else port = await freePort();
  const childEnv = t ? { ...env, DATABASE_URL: t.testDb.location, DATA_DIR: dataDir } : { ...env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
  return {
    async api(method, url, payload, auth) {
      const headers = { authorization: auth ?? `Bearer ${ADMIN_TOKEN}` };
      if (t) {
        const res = await t.app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
        return { status: res.statusCode, body: res.body ? res.json() : null };
      }
      const res = await fetch(`http://127.0.0.1:${port}${url}`, {
        method, headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async start() { child = await spawnHerald(t ? 'worker' : 'serve', childEnv); },
    async kill() { await child!.kill('SIGKILL'); },
    async close() {
      await child?.kill('SIGTERM');
      await t?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe(`kill -9 during a DELAY (${testDatabaseKind})`, () => {
  let dns: TestDnsServer;
  let sink: SmtpSink;
  let h: Harness;

  beforeAll(async () => {
    dns = await startDnsServer({});
    sink = await startSmtpSink();
    h = await harness({
      SMTP_URL: sink.url, DNS_SERVERS: dns.address, ADMIN_TOKEN, APP_SECRET, PUBLIC_URL: 'https://mail.crash.test',
      SEND_RATE_PER_SECOND: '0', SEND_RETRY_DELAY_SECONDS: '1', SEND_RETRY_DELAY_MAX_SECONDS: '2', LOG_LEVEL: 'warn',
    });
  });
  afterAll(async () => {
    await h?.close();
    await sink?.close();
    await dns?.close();
  });

  it('completes every execution after the restart, each step once', { timeout: 240_000 }, async () => {
    await h.start();
    const project = await h.api('POST', '/admin/projects', { name: 'wf-crash' });
    const auth = `Bearer ${project.body.data.secretKey}`;
    const domain = await h.api('POST', '/domains', { domain: 'crash-flows.test' }, auth);
    for (const r of domain.body.data.records.filter((rec: { type: string }) => rec.type === 'TXT')) dns.setRecords(r.name, [{ type: 'TXT', data: r.values ?? [r.value] }]);
    expect((await h.api('POST', `/domains/${domain.body.data.id}/verify`, undefined, auth)).body.data.status).toBe('VERIFIED');
    const template = await h.api('POST', '/templates', { name: 't', type: 'TRANSACTIONAL', subject: 'Step {{ step }}', body: '<p>{{ step }}</p>', from: SENDER }, auth);
    const workflow = await h.api('POST', '/workflows', {
      name: 'Crash', enabled: true, trigger: { type: 'EVENT', event: 'joined' },
      steps: [
        { id: 'first', type: 'SEND_EMAIL', templateId: template.body.data.id, data: { step: 1 } },
        { id: 'pause', type: 'DELAY', duration: '4s' },
        { id: 'second', type: 'SEND_EMAIL', templateId: template.body.data.id, data: { step: 2 } },
      ],
    }, auth);
    const id = workflow.body.data.id as string;
    for (let i = 0; i < CONTACTS; i++) expect((await h.api('POST', '/v1/track', { email: `c${i}@dest.test`, event: 'joined' }, auth)).status).toBe(200);

    // Every execution is in its DELAY and every first email has reached the sink: kill the worker now.
    await eventually('all executions waiting', async () => {
      const list = await h.api('GET', `/workflows/${id}/executions?status=WAITING`, undefined, auth);
      return list.body.data.total === CONTACTS && sink.messages.length >= CONTACTS ? true : undefined;
    }, 60_000);
    await h.kill();
    await h.start();

    const done = await eventually('all executions completed', async () => {
      const list = await h.api('GET', `/workflows/${id}/executions?status=COMPLETED&limit=100`, undefined, auth);
      return list.body.data.total === CONTACTS ? list.body.data.items : undefined;
    }, 120_000);
    for (const exec of done as { history: { stepId: string; status: string }[] }[]) {
      expect(exec.history.map((e) => [e.stepId, e.status])).toEqual([['first', 'COMPLETED'], ['pause', 'COMPLETED'], ['second', 'COMPLETED']]);
    }
    await eventually('the second emails', async () => (sink.messages.length >= 2 * CONTACTS ? true : undefined), 60_000);
    const subjects = sink.messages.map((m) => `${m.to[0]} ${/^Subject: (.*)$/m.exec(m.raw.toString())?.[1]?.trim()}`).sort();
    const expected = Array.from({ length: CONTACTS }, (_, i) => [`c${i}@dest.test Step 1`, `c${i}@dest.test Step 2`]).flat().sort();
    expect(subjects).toEqual(expected);
    const emails = await h.api('GET', `/emails?sourceId=${id}&limit=100`, undefined, auth);
    expect(emails.body.data.total).toBe(2 * CONTACTS);
  });
});
