// A Herald with data in every part that matters (a project and its keys, a verified domain and its sealed DKIM key,
// contacts, a template with two versions, a campaign scheduled for tomorrow and its job in the queue, a sent email, a
// user and their membership, the audit log) is backed up while it serves, and again once stopped. The stopped backup
// restores with every table's row count equal; the one taken while serving restores the same data into a Herald
// started without secrets in its environment, where the project's key still authenticates, the source's admin token
// still works, the campaign is still scheduled, and a send is DKIM-signed with the key sealed under the restored
// APP_SECRET and verifies. On PGlite the source's secrets are the ones it generated into DATA_DIR; on PostgreSQL they
// come from the environment, as in production.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { authenticate } from 'mailauth';
import { Resolver } from 'node:dns/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, APP_SECRET } from '../support/app.ts';
import { freePort, spawnHerald, type HeraldChild } from '../support/child.ts';
import { testDatabaseKind } from '../support/database.ts';
import { publishDomainRecords, startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { until } from '../support/until.ts';
import { call, emptyPlace, herald, migratedPlace, passphraseFile, tableCounts, type Place } from './places.ts';

const DOMAIN = 'backup.test';
/** Herald's own data, which nothing changes in the background once the test stops writing. */
const DATA_TABLES = [
  'public.projects',
  'public.api_keys',
  'public.domains',
  'public.contacts',
  'public.templates',
  'public.template_versions',
  'public.campaigns',
  'public.emails',
  'public.users',
  'public.memberships',
];

describe(`backup and restore round trip (${testDatabaseKind})`, { timeout: 600_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-round-trip-'));
  const places: Place[] = [];
  let dns: TestDnsServer | null = null;
  let sink: SmtpSink | null = null;
  let child: HeraldChild | null = null;

  afterAll(async () => {
    await child?.kill('SIGTERM');
    for (const place of places) await place.drop();
    await sink?.close();
    await dns?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function serve(place: Place, env: Record<string, string>): Promise<string> {
    const port = await freePort();
    child = await spawnHerald('serve', {
      ...place.env,
      ...env,
      DNS_SERVERS: dns!.address,
      SMTP_URL: sink!.url,
      SEND_RATE_PER_SECOND: '0',
      SEND_RETRY_DELAY_SECONDS: '1',
      SEND_RETRY_DELAY_MAX_SECONDS: '2',
      PUBLIC_URL: 'https://mail.backup.test',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    });
    return `http://127.0.0.1:${port}`;
  }

  /** Sends one email from the verified domain and answers the message the sink received, once it is SENT. */
  async function sendOne(base: string, auth: string, to: string) {
    const sent = await call(base, 'POST', '/v1/send', auth, {
      to,
      from: `hello@${DOMAIN}`,
      subject: 'Kept',
      body: '<p>Still here</p>',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const id = sent.body.data.emails[0].email as string;
    await until(
      async () => (await call(base, 'GET', `/emails/${id}`, auth)).body.data.status === 'SENT',
      `email to ${to} SENT`,
      60_000,
    );
    return sink!.messages.find((message) => message.to.includes(to))!;
  }

  it('brings back every table, and the keys, admin token and sealed DKIM key work after it', async () => {
    dns = await startDnsServer({});
    sink = await startSmtpSink();
    const source = await migratedPlace();
    places.push(source);
    const secretsEnv: Record<string, string> = testDatabaseKind === 'postgres' ? { APP_SECRET, ADMIN_TOKEN } : {};
    const sourceEnv = { ...source.env, ...secretsEnv };
    const base = await serve(source, secretsEnv);
    const adminToken = secretsEnv.ADMIN_TOKEN ?? fs.readFileSync(path.join(source.dataDir, 'admin-token'), 'utf8');
    const admin = `Bearer ${adminToken.trim()}`;

    const project = await call(base, 'POST', '/admin/projects', admin, { name: 'Backed up' });
    expect(project.status).toBe(201);
    const auth = `Bearer ${project.body.data.secretKey}`;
    const domain = await call(base, 'POST', '/domains', auth, { domain: DOMAIN });
    publishDomainRecords(dns, domain.body.data.records);
    const verified = await call(base, 'POST', `/domains/${domain.body.data.id}/verify`, auth);
    expect(verified.body.data.status).toBe('VERIFIED');
    for (const n of [1, 2, 3]) {
      const contact = await call(base, 'POST', '/contacts', auth, { email: `reader${n}@dest.test`, data: { n } });
      expect(contact.status, JSON.stringify(contact.body)).toBeLessThan(300);
    }
    const template = await call(base, 'POST', '/templates', auth, {
      name: 'Welcome',
      subject: 'Hi {{n}}',
      body: '<p>Version one</p>',
      type: 'TRANSACTIONAL',
    });
    expect(template.status).toBe(201);
    const second = await call(base, 'PATCH', `/templates/${template.body.data.id}`, auth, { body: '<p>Two</p>' });
    expect(second.status).toBe(200);
    const campaign = await call(base, 'POST', '/campaigns', auth, {
      name: 'Draft',
      subject: 'News',
      body: '<p>News</p><a href="{{unsubscribeUrl}}">unsubscribe</a>',
      from: `news@${DOMAIN}`,
      audienceType: 'ALL',
    });
    expect(campaign.status, JSON.stringify(campaign.body)).toBe(201);
    // Scheduled for tomorrow: a job waits in the queue.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await call(base, 'POST', `/campaigns/${campaign.body.data.id}/send`, auth, {
      scheduledFor: tomorrow,
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(202);
    const user = await call(base, 'POST', '/admin/users', admin, {
      email: 'editor@backup.test',
      isAdmin: false,
      projectId: project.body.data.id,
      role: 'editor',
    });
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    await sendOne(base, auth, 'before@dest.test');

    const pass = passphraseFile(dir, 'round trip');
    const served = path.join(dir, 'served.hbk');
    const whileServing = await herald(['backup', served, '--passphrase-file', pass], sourceEnv);
    expect(whileServing.code, whileServing.stderr).toBe(0);
    await child!.kill('SIGTERM');
    child = null;
    const stopped = path.join(dir, 'stopped.hbk');
    const offline = await herald(['backup', stopped], sourceEnv);
    expect(offline.code, offline.stderr).toBe(0);
    const before = await tableCounts(source);
    for (const table of [...DATA_TABLES, 'public.audit_log', 'pgboss.job'])
      expect(before[table], table).toBeGreaterThan(0);

    const exact = await emptyPlace();
    places.push(exact);
    const exactRestore = await herald(['restore', stopped], exact.env);
    expect(exactRestore.code, exactRestore.stderr).toBe(0);
    expect(await tableCounts(exact)).toEqual(before);

    const target = await emptyPlace();
    places.push(target);
    const restore = await herald(['restore', served, '--passphrase-file', pass], target.env);
    expect(restore.code, restore.stderr).toBe(0);
    const restored = await tableCounts(target);
    for (const table of DATA_TABLES) expect(restored[table], table).toBe(before[table]);
    // Through the server, the backup's own audit entry is written once the dump is taken.
    expect(restored['public.audit_log']).toBe(before['public.audit_log']! - (testDatabaseKind === 'pglite' ? 1 : 0));

    const restoredBase = await serve(target, {});
    expect((await call(restoredBase, 'GET', '/api-keys/current', auth)).status).toBe(200);
    const listed = await call(restoredBase, 'GET', '/admin/projects?limit=100', admin);
    expect(listed.status).toBe(200);
    expect(listed.body.data.items.map((p: { name: string }) => p.name)).toContain('Backed up');
    const kept = await call(restoredBase, 'GET', `/campaigns/${campaign.body.data.id}`, auth);
    expect(kept.body.data).toMatchObject({ status: 'SCHEDULED', scheduledAt: tomorrow });
    const message = await sendOne(restoredBase, auth, 'after@dest.test');
    const resolver = new Resolver();
    resolver.setServers([dns.address]);
    const result = await authenticate(message.raw, {
      resolver: ((name: string, type: string) => resolver.resolve(name, type)) as never,
      ip: '127.0.0.1',
      helo: 'test',
      sender: `hello@${DOMAIN}`,
      trustReceived: false,
    });
    expect(result.dkim.results[0]!.status.result).toBe('pass');
    expect(result.dkim.results[0]!.signingDomain).toBe(DOMAIN);
  });
});
