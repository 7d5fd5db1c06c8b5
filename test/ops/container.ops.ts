// The image and the compose stack, built and run with podman: the image serves, sends a first email into the outbox
// on its volume, and loses nothing when killed mid-campaign and started again on that volume; compose.yaml as
// committed (with an override that stands a forwarder to this machine's PostgreSQL in for the postgres service, as no
// PostgreSQL image can be had here) sends a campaign while one of its two workers is killed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { freePort } from '../support/child.ts';
import { until } from '../support/until.ts';
import { heraldApi } from './herald-api.ts';
import {
  IMAGE,
  buildImage,
  exec,
  forwardTo,
  hostAddress,
  imageSize,
  podman,
  podmanEnv,
  root,
  unavailable,
} from './podman.ts';

const PG_URL = process.env.OPS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN_TOKEN = `adm_${randomBytes(12).toString('hex')}`;
const APP_SECRET = randomBytes(32).toString('base64url');
const tag = randomBytes(4).toString('hex');

/** `wait`, or its error with what `logs` says (a container's output) appended. */
async function orLogs<T>(wait: Promise<T>, logs: () => Promise<string>): Promise<T> {
  try {
    return await wait;
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${await logs()}`, { cause: error });
  }
}

if (unavailable) console.warn(`container tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)('the container image and compose stack (podman)', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    await buildImage();
  }, 1_800_000);
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  }, 120_000);

  it('is small, runs as a non-root user, answers its health check and sends into its volume', async () => {
    const size = await imageSize(IMAGE);
    const base = await imageSize('docker.io/library/node:20-bookworm-slim');
    console.log(`image: ${(size / 1e6).toFixed(0)} MB, of which Herald ${((size - base) / 1e6).toFixed(0)} MB`);
    // Herald's layers: production dependencies without declarations, maps and readmes, and the built files.
    expect(size - base).toBeLessThan(180e6);
    const [image] = JSON.parse(await podman(['image', 'inspect', IMAGE]));
    expect(image.Config.User).toBe('node');
    expect(image.Config.Volumes).toHaveProperty('/data');
    expect(JSON.stringify(image.Healthcheck ?? image.Config.Healthcheck)).toContain('/healthz');

    const name = `herald-ci-${tag}`;
    const volume = `herald-ci-data-${tag}`;
    cleanup.push(() => podman(['volume', 'rm', '-f', volume]));
    cleanup.push(() => podman(['rm', '-f', '-t', '0', name]));
    const port = await freePort();
    const start = () => podman(['start', name]);
    await podman([
      'run',
      '-d',
      '--name',
      name,
      '--network',
      'host',
      '-v',
      `${volume}:/data`,
      '-e',
      `PORT=${port}`,
      '-e',
      `ADMIN_TOKEN=${ADMIN_TOKEN}`,
      '-e',
      'SEND_RETRY_DELAY_SECONDS=1',
      IMAGE,
    ]);
    const base_ = `http://127.0.0.1:${port}`;
    const healthy = async () => {
      await orLogs(
        until(
          async () => (await fetch(`${base_}/healthz`).catch(() => null))?.ok,
          "the container's /healthz",
          180_000,
          500,
        ),
        async () => (await exec('podman', ['logs', name])).stderr,
      );
    };
    await healthy();
    expect((await exec('podman', ['healthcheck', 'run', name])).code).toBe(0);
    expect((await podman(['exec', name, 'id', '-u'])).trim()).toBe('1000');

    // The first start printed the Default project's secret key; its local sender needs no DNS.
    const logs = await exec('podman', ['logs', name]);
    const sk = /sk_[A-Za-z0-9_-]+/.exec(logs.stdout + logs.stderr)?.[0];
    expect(sk, logs.stdout).toBeDefined();
    const auth = `Bearer ${sk}`;
    const api = heraldApi(base_, ADMIN_TOKEN);
    const sent = await api.call(
      'POST',
      '/v1/send',
      { to: 'first@example.com', from: 'hello@herald.localhost', subject: 'Hello', body: '<p>Hello</p>' },
      auth,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const emailId = sent.body.data.emails[0].email as string;
    const outbox = path.join(
      (await podman(['volume', 'inspect', volume, '--format', '{{.Mountpoint}}'])).trim(),
      'outbox',
    );
    await until(() => fs.existsSync(path.join(outbox, `${emailId}.eml`)), 'the first email in the outbox', 60_000);

    // Killed mid-campaign and started again on the same volume: everyone is mailed.
    const recipients = Array.from({ length: 300 }, (_, i) => `reader${i}@example.com`);
    await api.importContacts(auth, recipients);
    const campaign = await api.sendCampaign(auth, 'news@herald.localhost');
    const files = () => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')) : []);
    await until(() => files().length > 20, 'the campaign under way', 120_000, 20);
    await podman(['kill', '-s', 'KILL', name]);
    const atKill = files().length;
    await start();
    await healthy();
    await until(
      async () => (await api.campaignStatus(auth, campaign)) === 'SENT',
      () => `the campaign SENT after the restart (${files().length} files)`,
      400_000,
      1000,
    );
    const mailed = new Set(
      files()
        .map((f) => /^To: (\S+)/im.exec(fs.readFileSync(path.join(outbox, f), 'latin1'))?.[1])
        .filter((to): to is string => to !== undefined && to.startsWith('reader')),
    );
    console.log(`container kill -9: ${atKill} files at the kill, ${mailed.size} readers mailed in the end`);
    expect(atKill).toBeLessThan(301);
    expect(mailed.size).toBe(recipients.length);
  }, 900_000);

  describe('compose.yaml', () => {
    let sink: SmtpSink;
    let dns: TestDnsServer;
    let admin: pg.Client;
    const database = `herald_ops_${tag}`;
    const project = `herald-ops-${tag}`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-compose-'));

    const compose = (args: string[], timeoutMs = 600_000) =>
      exec(
        'podman-compose',
        ['-p', project, '-f', path.join(root, 'compose.yaml'), '-f', `${dir}/test.yaml`, ...args],
        {
          env: { ...podmanEnv, ...composeEnv },
          timeoutMs,
        },
      );
    let composeEnv: Record<string, string> = {};

    beforeAll(async () => {
      sink = await startSmtpSink({ host: '0.0.0.0' });
      // On this machine's own address: a UDP answer from a server on 0.0.0.0 leaves from another source address,
      // which a container's resolver ignores.
      dns = await startDnsServer({}, { host: hostAddress() });
      admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`);
      const forward = await forwardTo(Number(new URL(PG_URL).port || 5432));
      cleanup.push(
        () => forward.close(),
        () => sink.close(),
        () => dns.close(),
      );
      cleanup.push(async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await admin.end();
      });
      const host = hostAddress();
      const apiPort = await freePort();
      composeEnv = {
        POSTGRES_PASSWORD: 'unused-here',
        ADMIN_TOKEN,
        APP_SECRET,
        HERALD_IMAGE: IMAGE,
        HERALD_PORT: String(apiPort),
        PUBLIC_URL: 'https://mail.ops.test',
      };
      // The stack as committed, but for the database: "postgres" forwards to this machine's PostgreSQL (through the
      // forwarder above, as it listens on loopback only), and the services send to the sink and ask the DNS server
      // of this test process.
      const proxy =
        `require('net').createServer((c) => { const u = require('net').connect(${forward.port}, '${host}'); ` +
        `c.pipe(u).pipe(c); c.on('error', () => u.destroy()); u.on('error', () => c.destroy()); }).listen(5432)`;
      const env = [
        `      DATABASE_URL: postgres://postgres@postgres:5432/${database}`,
        `      SMTP_URL: smtp://${host}:${sink.port}`,
        `      DNS_SERVERS: ${dns.address}`,
        `      SEND_RETRY_DELAY_SECONDS: "1"`,
        `      SEND_RETRY_DELAY_MAX_SECONDS: "2"`,
      ].join('\n');
      fs.writeFileSync(
        `${dir}/test.yaml`,
        [
          'services:',
          '  postgres:',
          `    image: ${IMAGE}`,
          `    entrypoint: ["node", "-e", ${JSON.stringify(proxy)}]`,
          '    command: []',
          '    healthcheck:',
          '      disable: true',
          ...['api', 'worker-1', 'worker-2'].flatMap((service) => [`  ${service}:`, '    environment:', env]),
          '',
        ].join('\n'),
      );
      cleanup.push(async () => {
        await compose(['down', '-v', '-t', '0'], 180_000);
        await exec('podman', ['network', 'rm', '-f', `${project}_default`]);
      });
      const up = await compose(['up', '-d']);
      if (up.code !== 0) throw new Error(`podman-compose up:\n${up.stdout}\n${up.stderr}`);
    }, 600_000);

    it('sends a campaign to everyone while one of the two workers is killed', async () => {
      const api = heraldApi(`http://127.0.0.1:${composeEnv.HERALD_PORT}`, ADMIN_TOKEN);
      const logsOf = async (service: string) => (await exec('podman', ['logs', `${project}_${service}_1`])).stderr;
      await orLogs(
        until(
          async () => (await fetch(`http://127.0.0.1:${composeEnv.HERALD_PORT}/healthz`).catch(() => null))?.ok,
          "the compose api's /healthz",
          240_000,
          500,
        ),
        () => logsOf('api'),
      );
      const auth = await api.projectWithDomain(dns, 'ops.test');
      const recipients = Array.from({ length: 600 }, (_, i) => `reader${i}@dest.test`);
      await api.importContacts(auth, recipients);
      const campaign = await api.sendCampaign(auth, 'news@ops.test');
      await until(() => sink.messages.length > 50, 'the campaign under way', 240_000, 20);
      await podman(['kill', '-s', 'KILL', `${project}_worker-1_1`]);
      const atKill = sink.messages.length;
      await orLogs(
        until(
          async () => (await api.campaignStatus(auth, campaign)) === 'SENT',
          () => `the campaign SENT with one worker (${sink.messages.length} messages)`,
          600_000,
          1000,
        ),
        () => logsOf('worker-2'),
      );
      const perRecipient = new Map<string, number>();
      for (const message of sink.messages) {
        const to = message.to[0]!;
        if (to.startsWith('reader')) perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
      }
      const duplicates = [...perRecipient.values()].reduce((n, c) => n + c - 1, 0);
      console.log(
        `compose: ${atKill} messages at the kill, ${perRecipient.size} readers mailed, ${duplicates} duplicates`,
      );
      expect(perRecipient.size).toBe(recipients.length);
      // A worker killed between handing a message to SMTP and recording it may send that message again: at most
      // one batch in flight.
      expect(duplicates).toBeLessThanOrEqual(100);
    }, 900_000);
  });
});
