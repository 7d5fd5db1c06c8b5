// A backup taken while a campaign sends is a consistent moment of it: restored elsewhere (the source killed, as when
// its machine is lost), the campaign resumes and finishes, and every recipient gets exactly one message counting
// both sides: those the backup records as sent get nothing more, every other recipient gets one message from the
// restored Herald (those in flight at the backup's moment included, as after a crash).
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, APP_SECRET } from '../support/app.ts';
import { freePort, spawnHerald, type HeraldChild } from '../support/child.ts';
import { testDatabaseKind } from '../support/database.ts';
import { publishDomainRecords, startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { until } from '../support/until.ts';
import { call, emptyPlace, herald, migratedPlace, onDatabase, rows, type Place } from './places.ts';

const RECIPIENTS = 200;
const DOMAIN = 'during.test';
const SENDER = `news@${DOMAIN}`;
const ADMIN = `Bearer ${ADMIN_TOKEN}`;

describe(`a backup taken while a campaign sends (${testDatabaseKind})`, { timeout: 600_000 }, () => {
  const places: Place[] = [];
  const sinks: SmtpSink[] = [];
  let dns: TestDnsServer | null = null;
  let child: HeraldChild | null = null;

  afterAll(async () => {
    await child?.kill('SIGKILL');
    for (const place of places) await place.drop();
    for (const sink of sinks) await sink.close();
    await dns?.close();
  });

  async function serve(place: Place, sink: SmtpSink, env: Record<string, string>): Promise<string> {
    const port = await freePort();
    child = await spawnHerald('serve', {
      ...place.env,
      ...env,
      DNS_SERVERS: dns!.address,
      SMTP_URL: sink.url,
      SEND_RETRY_DELAY_SECONDS: '1',
      SEND_RETRY_DELAY_MAX_SECONDS: '2',
      PUBLIC_URL: 'https://mail.during.test',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    });
    return `http://127.0.0.1:${port}`;
  }

  it('restores to a consistent state and the campaign resumes without duplicates', async () => {
    dns = await startDnsServer({});
    const [before, after] = [await startSmtpSink(), await startSmtpSink()];
    sinks.push(before, after);
    const source = await migratedPlace();
    places.push(source);
    const secrets = { APP_SECRET, ADMIN_TOKEN };
    // Five messages a second: the campaign is still sending when the backup is taken.
    const base = await serve(source, before, { ...secrets, SEND_RATE_PER_SECOND: '5' });

    const project = await call(base, 'POST', '/admin/projects', ADMIN, { name: DOMAIN });
    const auth = `Bearer ${project.body.data.secretKey}`;
    const domain = await call(base, 'POST', '/domains', auth, { domain: DOMAIN });
    publishDomainRecords(dns, domain.body.data.records);
    expect((await call(base, 'POST', `/domains/${domain.body.data.id}/verify`, auth)).body.data.status).toBe(
      'VERIFIED',
    );
    const contacts = Array.from({ length: RECIPIENTS }, (_, i) => ({ email: `user${i}@dest.test`, data: { n: i } }));
    const upload = await call(base, 'POST', '/contacts/import', auth, contacts);
    expect(upload.status, JSON.stringify(upload.body)).toBe(202);
    await until(
      async () =>
        (await call(base, 'GET', `/contacts/import/${upload.body.data.id}`, auth)).body.data.status === 'completed',
      'the import',
      120_000,
    );
    const created = await call(base, 'POST', '/campaigns', auth, {
      name: 'during',
      subject: 'Hello {{n}}',
      body: '<p>Number {{n}}</p><a href="{{unsubscribeUrl}}">unsubscribe</a>',
      from: SENDER,
      audienceType: 'ALL',
    });
    const id = created.body.data.id as string;
    expect((await call(base, 'POST', `/campaigns/${id}/send`, auth)).status).toBe(202);
    const count = async (status?: string) =>
      (await call(base, 'GET', `/emails?sourceId=${id}&limit=1${status ? `&status=${status}` : ''}`, auth)).body.data
        .total as number;
    await until(async () => (await count()) === RECIPIENTS && (await count('SENT')) >= 10, 'ten sent', 120_000);

    const file = `${source.dataDir}.hbk`;
    const backup = await herald(['backup', file], { ...source.env, ...secrets });
    expect(backup.code, backup.stderr).toBe(0);
    await child!.kill('SIGKILL');
    child = null;

    const target = await emptyPlace();
    places.push(target);
    const restore = await herald(['restore', file], target.env);
    fs.rmSync(file);
    expect(restore.code, restore.stderr).toBe(0);
    const recorded = await onDatabase(target, (db) =>
      rows<{ to_email: string; status: string }>(
        db,
        sql`SELECT to_email, status FROM emails WHERE source_id = ${id}::uuid`,
      ),
    );
    expect(recorded).toHaveLength(RECIPIENTS);
    const sentBefore = new Set(recorded.filter((r) => r.status === 'SENT').map((r) => r.to_email));
    expect(sentBefore.size).toBeGreaterThanOrEqual(10);
    expect(sentBefore.size).toBeLessThan(RECIPIENTS);

    const restoredBase = await serve(target, after, { SEND_RATE_PER_SECOND: '0', SEND_LEASE_SECONDS: '3' });
    await until(
      async () => (await call(restoredBase, 'GET', `/campaigns/${id}`, auth)).body.data.status === 'SENT',
      'the restored campaign SENT',
      300_000,
      500,
    );
    const mailed = new Map<string, number>();
    for (const message of after.messages.filter((m) => m.from === SENDER))
      mailed.set(message.to[0]!, (mailed.get(message.to[0]!) ?? 0) + 1);
    console.log(
      `backup during a campaign (${testDatabaseKind}): ${sentBefore.size} recorded sent in the backup, ` +
        `${recorded.filter((r) => r.status === 'SENDING').length} in flight; ${after.messages.length} sent after it`,
    );
    const wrong = contacts
      .map(({ email }) => ({ email, times: (sentBefore.has(email) ? 1 : 0) + (mailed.get(email) ?? 0) }))
      .filter(({ times }) => times !== 1);
    expect(wrong, `sent before the backup: ${sentBefore.size}; after: ${after.messages.length}`).toEqual([]);
  });
});
