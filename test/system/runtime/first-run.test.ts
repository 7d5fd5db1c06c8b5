// The quick start as a new user follows it: a fresh `herald serve` prints a banner with the dashboard and a first
// send, and the README's "Your first email" block, run as written, puts a sent message in the outbox without DNS.
// The local sender (herald.localhost) is for the outbox only: with SMTP it is refused, and mail queued from it
// before the switch fails rather than leaving the machine.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config.ts';
import { startRuntime, type Runtime } from '../../../src/runtime.ts';
import { bannerLines } from '../../../src/cli.banner.ts';
import { freePort, spawnHerald } from '../../support/child.ts';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../../support/database.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { smtpDialogue } from '../../support/smtp-client.ts';
import { until } from '../../support/until.ts';
import { repoRoot } from '../../support/paths.ts';

const root = repoRoot;

/** The shell block under the README's "Your first email" heading. */
function readmeFirstEmail(): string[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Your first email'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  // One command per entry: continuation lines (ending in a backslash) belong to the command they continue.
  return block
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

const bash = (script: string, cwd: string) =>
  execFileSync('bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    encoding: 'utf8',
    timeout: 30_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

describe('the first run', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /**
   * A fresh folder for DATA_DIR (as `./data` of the folder the commands run in), and a fresh database on PostgreSQL.
   */
  async function freshInstall(): Promise<{
    cwd: string;
    dataDir: string;
    databaseEnv: Record<string, string>;
    db: TestDatabase | null;
  }> {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-first-run-'));
    cleanups.push(() => fs.rmSync(cwd, { recursive: true, force: true }));
    let db: TestDatabase | null = null;
    if (testDatabaseKind === 'postgres') {
      // An empty database: the template's is migrated already, as a server's own would be after its first start.
      db = await createTestDatabase();
      cleanups.push(() => db!.drop());
    }
    return { cwd, dataDir: path.join(cwd, 'data'), databaseEnv: db ? { DATABASE_URL: db.location } : {}, db };
  }

  it(
    'prints the setup link once, after the keys; it makes the first user, owner of ' +
      'the Default project, and then no more',
    { timeout: 120_000 },
    async () => {
      const { dataDir, databaseEnv } = await freshInstall();
      const env = { DATA_DIR: dataDir, PORT: '0', ...databaseEnv };
      const logger = pino({ level: 'silent' });
      const first = await startRuntime(loadConfig(env), 'serve', logger);
      const address = first.app!.server.address() as { port: number };
      const lines = bannerLines(loadConfig(env), 'serve', first);
      const text = lines.join('\n');
      expect(text.indexOf('setup#')).toBeGreaterThan(text.indexOf('public key'));
      const link = /(http:\/\/localhost:\d+)\/setup#([\w-]{43})/.exec(text)!;
      expect(link[1]).toBe(`http://localhost:${address.port}`);
      const setup = await first.app!.inject({
        method: 'POST',
        url: '/auth/setup',
        payload: { token: link[2], email: 'first@example.com', name: 'First', password: 'the first passphrase' },
      });
      expect(setup.statusCode).toBe(201);
      expect(setup.json().data.projects).toEqual([{ id: first.bootstrap!.id, name: 'Default', role: 'owner' }]);
      await first.close();

      const second = await startRuntime(loadConfig(env), 'serve', logger);
      try {
        expect(second.setupToken).toBeNull();
        expect(bannerLines(loadConfig(env), 'serve', second).join('\n')).not.toContain('setup#');
      } finally {
        await second.close();
      }
    },
  );

  it(
    'prints a banner with the dashboard, the keys once and a first send that works as ' +
      'printed; the README block puts the message in the outbox',
    { timeout: 120_000 },
    async () => {
      const { cwd, dataDir, databaseEnv } = await freshInstall();
      const port = await freePort();
      const relayPort = await freePort();
      const inboundPort = await freePort();
      const child = await spawnHerald('serve', {
        DATA_DIR: dataDir,
        PORT: String(port),
        SUBMISSION_SMTP_PORT: String(relayPort),
        INBOUND_SMTP_PORT: String(inboundPort),
        LOG_LEVEL: 'warn',
        ...databaseEnv,
      });
      cleanups.push(() => child.kill('SIGTERM'));
      const out = child.output();
      const base = `http://localhost:${port}`;
      expect(out).toContain(`Dashboard   ${base}/`);
      expect(out).toContain(`API docs    ${base}/docs`);
      expect(out).toContain(`outbox: every message is written to ${path.join(dataDir, 'outbox')}`);
      const secretKey = /secret key\s+(sk_\S+)/.exec(out)![1]!;
      expect(out).toContain(
        `admin token  ${fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim()} ` +
          ` (also saved in ${path.join(dataDir, 'admin-token')})`,
      );
      expect(out).not.toMatch(/"level":/); // no raw JSON log lines in the banner
      // The SMTP listeners it runs, each answering at the address printed.
      const relayLine = /SMTP relay {2}smtp:\/\/([\d.]+):(\d+) {2}\(AUTH PLAIN or LOGIN with a secret key/.exec(out)!;
      const inboundLine = /Inbound {5}smtp:\/\/([\d.]+):(\d+) {2}\(mail to the receiving domains/.exec(out)!;
      expect([relayLine.slice(1), inboundLine.slice(1)]).toEqual([
        ['127.0.0.1', String(relayPort)],
        ['127.0.0.1', String(inboundPort)],
      ]);
      for (const listening of [relayPort, inboundPort]) {
        const dialogue = await smtpDialogue(listening);
        expect(dialogue.greeting).toMatch(/^220 /);
        await dialogue.close();
      }

      // The printed first send, as printed.
      const printed = /(curl -X POST [^\n]*\\\n[^\n]*)/.exec(out)![1]!.replace(/\\\n/, ' ');
      const fromBanner = JSON.parse(bash(printed, cwd)) as {
        success: boolean;
        data: { emails: { email: string; status: string }[] };
      };
      expect(fromBanner.success).toBe(true);

      // The README's block, with the key and port this run printed.
      const commands = readmeFirstEmail().map((line) =>
        line.replaceAll('http://localhost:3000', base).replaceAll('sk_…', secretKey),
      );
      const ls = commands.pop()!;
      expect(ls.trim()).toMatch(/^ls data\/outbox\//);
      const answer = JSON.parse(bash(commands.join('\n'), cwd)) as {
        success: boolean;
        data: { emails: { email: string }[] };
      };
      expect(answer.success).toBe(true);
      const emailId = answer.data.emails[0]!.email;
      const auth = { authorization: `Bearer ${secretKey}` };
      for (const id of [emailId, fromBanner.data.emails[0]!.email]) {
        await until(async () => {
          const email = (await (await fetch(`${base}/emails/${id}`, { headers: auth })).json()) as {
            data: { status: string };
          };
          return email.data.status === 'SENT';
        }, `email ${id} SENT`);
      }
      const listing = bash(ls, cwd);
      expect(listing).toContain(`${emailId}.eml`);
      const message = fs.readFileSync(path.join(dataDir, 'outbox', `${emailId}.eml`), 'utf8');
      expect(message).toMatch(/^From: hello@herald\.localhost/m);
      expect(message).toMatch(/^DKIM-Signature: .*d=herald\.localhost/m);

      // The local domain is listed as verified, and never looked up.
      const domains = (await (await fetch(`${base}/domains`, { headers: auth })).json()) as {
        data: { items: { domain: string; status: string }[] };
      };
      expect(domains.data.items.map((d) => [d.domain, d.status])).toEqual([['herald.localhost', 'VERIFIED']]);
      // Another .localhost name cannot be added: nothing could ever verify it.
      const other = await fetch(`${base}/domains`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ domain: 'mail.localhost' }),
      });
      expect(other.status).toBe(422);
    },
  );

  describe('with the SMTP transport', () => {
    let sink: SmtpSink;
    const runtimes: Runtime[] = [];
    afterAll(async () => {
      for (const runtime of runtimes) await runtime.close().catch(() => {});
      await sink?.close();
    });

    it(
      'refuses herald.localhost saying why, and fails mail queued from it before the switch instead of sending it',
      { timeout: 120_000 },
      async () => {
        sink = await startSmtpSink();
        const { dataDir, databaseEnv } = await freshInstall();
        const logger = pino({ level: 'silent' });
        const env = { DATA_DIR: dataDir, PORT: '0', ...databaseEnv };
        // The first start on the outbox: an API process only, so what it accepts stays queued.
        const api = await startRuntime(loadConfig(env), 'api', logger);
        runtimes.push(api);
        const auth = { authorization: `Bearer ${api.bootstrap!.secretKey}` };
        const send = (runtime: Runtime) =>
          runtime.app!.inject({
            method: 'POST',
            url: '/v1/send',
            headers: auth,
            payload: { to: 'ada@example.com', from: 'hello@herald.localhost', subject: 'Hi', body: '<p>Hi</p>' },
          });
        const queued = await send(api);
        expect(queued.statusCode).toBe(200);
        const emailId = queued.json().data.emails[0].email as string;
        await api.close();

        // The same install moved to SMTP.
        const smtpEnv = { ...env, SMTP_URL: sink.url };
        const smtpApi = await startRuntime(loadConfig(smtpEnv), 'api', logger);
        runtimes.push(smtpApi);
        const refused = await send(smtpApi);
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error.code).toBe('DOMAIN_NOT_VERIFIED');
        expect(refused.json().message).toContain('herald.localhost is a local sender for the outbox transport only');
        await smtpApi.close();

        const worker = await startRuntime(loadConfig(smtpEnv), 'serve', logger);
        runtimes.push(worker);
        const email = await until(async () => {
          const res = await worker.app!.inject({ method: 'GET', url: `/emails/${emailId}`, headers: auth });
          const data = res.json().data as { status: string; statusReason: string | null; lastError: string | null };
          return data.status === 'FAILED' ? data : null;
        }, 'the queued email FAILED');
        expect(email.statusReason).toBe('DOMAIN_NOT_VERIFIED');
        expect(sink.messages).toHaveLength(0);
      },
    );
  });
});
