/**
 * Mail-path fixtures: a real DNS server and SMTP sink, an app wired to both, and a verified sender domain.
 *
 *   const m = await startMailFixture();              // DNS + SMTP sink + app (worker on, SMTP transport)
 *   const sender = await m.verifiedDomain('example.test');
 *   await m.t.app.inject({ method: 'POST', url: '/v1/send', headers: sender.auth, payload: {...} });
 *   await m.close();
 */
import { Resolver } from 'node:dns/promises';
import { createTestApp, type TestApp, type TestAppOptions } from './app.ts';
import { publishDomainRecords, startDnsServer, type TestDnsServer } from './dns-server.ts';
import { startSmtpSink, type SmtpSink } from './smtp-sink.ts';
import { until } from './until.ts';

export interface MailFixture {
  t: TestApp;
  dns: TestDnsServer;
  sink: SmtpSink;
  /** A project with `domain` added, its DNS records published and verified. */
  verifiedDomain(
    domain: string,
    project?: Awaited<ReturnType<TestApp['createProject']>>,
  ): Promise<{
    project: Awaited<ReturnType<TestApp['createProject']>>;
    auth: { authorization: string };
    domainId: string;
    selector: string;
  }>;
  /** A verified domain (of a new project unless one is given) with receiving on. */
  receivingDomain(
    domain: string,
    project?: Awaited<ReturnType<TestApp['createProject']>>,
  ): ReturnType<MailFixture['verifiedDomain']>;
  /** Resolves through the fixture's DNS server (mailauth's resolver). */
  resolve(name: string, type: string): Promise<unknown>;
  /** Polls an email until its status is one of `statuses`. */
  waitForStatus(
    auth: { authorization: string },
    emailId: string,
    statuses: string[],
    limitMs?: number,
  ): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startMailFixture(options: TestAppOptions = {}): Promise<MailFixture> {
  const dns = await startDnsServer({});
  const sink = await startSmtpSink();
  const t = await createTestApp({
    worker: true,
    ...options,
    env: {
      DNS_SERVERS: dns.address,
      SMTP_URL: sink.url,
      SEND_RATE_PER_SECOND: '0',
      SEND_RETRY_DELAY_SECONDS: '1',
      SEND_RETRY_DELAY_MAX_SECONDS: '2',
      PUBLIC_URL: 'https://mail.herald.test',
      // Receiving is turned on only where an inbound listener is configured (any free port).
      INBOUND_SMTP_PORT: '0',
      ...options.env,
    },
  });
  const resolver = new Resolver();
  resolver.setServers([dns.address]);
  const fixture: MailFixture = {
    t,
    dns,
    sink,
    async verifiedDomain(domain, existing) {
      const project = existing ?? (await t.createProject());
      const created = await t.app.inject({
        method: 'POST',
        url: '/domains',
        headers: project.auth,
        payload: { domain },
      });
      if (created.statusCode !== 201) throw new Error(`POST /domains: ${created.statusCode} ${created.body}`);
      const data = created.json().data as {
        id: string;
        records: { purpose: string; type: string; name: string; value: string; values?: string[] }[];
      };
      publishDomainRecords(dns, data.records);
      const verified = await t.app.inject({ method: 'POST', url: `/domains/${data.id}/verify`, headers: project.auth });
      if (verified.json().data?.status !== 'VERIFIED') throw new Error(`verify: ${verified.body}`);
      const dkim = data.records.find((r) => r.purpose === 'DKIM')!;
      return { project, auth: project.auth, domainId: data.id, selector: dkim.name.split('._domainkey.')[0]! };
    },
    async receivingDomain(domain, existing) {
      const verified = await fixture.verifiedDomain(domain, existing);
      const on = await t.app.inject({
        method: 'PATCH',
        url: `/domains/${verified.domainId}`,
        headers: verified.auth,
        payload: { receiving: true },
      });
      if (on.statusCode !== 200) throw new Error(`receiving on ${domain}: ${on.statusCode} ${on.body}`);
      return verified;
    },
    resolve: (name, type) => resolver.resolve(name, type),
    async waitForStatus(auth, emailId, statuses, limitMs = 30_000) {
      let email: Record<string, unknown> = {};
      const read = async () => {
        const res = await t.app.inject({ method: 'GET', url: `/emails/${emailId}`, headers: auth });
        email = res.json().data as Record<string, unknown>;
        return statuses.includes(String(email.status)) && email;
      };
      return until(
        read,
        () => `email ${emailId} stayed ${String(email.status)} (wanted ${statuses.join('/')})`,
        limitMs,
      );
    },
    async close() {
      await t.close();
      await sink.close();
      await dns.close();
    },
  };
  return fixture;
}
