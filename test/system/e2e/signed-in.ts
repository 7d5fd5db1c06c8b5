/**
 * A dashboard session on a project set up through the API: a real Herald (worker on, outbox transport) on a
 * real test database, a verified sender domain (in-test DNS server), and Chromium signed in with the
 * project's secret key. For the e2e files that check one page's behaviour rather than the whole flow.
 *
 *   const s = await startSignedIn('numbers.test');
 *   await s.api('POST', '/contacts', {...});
 *   await s.page.goto(`${s.base}/app/contacts`);
 *   await s.close();
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { addLocalSenderDomain } from '../../../src/modules/domains/index.ts';
import { ensureDefaultProject } from '../../../src/modules/projects/index.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { publishDomainRecords, startDnsServer, type TestDnsServer } from '../../support/dns-server.ts';
import { startBrowser, type TestBrowser } from './browser.ts';
import { dropTemporaryScreenshots, ui } from './ui.ts';

/** The `data` of an answer, with the members the tests read most. */
export type ApiData = Record<string, unknown> & { id: string; status: string; items: Record<string, unknown>[] };

export interface SignedIn {
  t: TestApp;
  /** The DNS server the app resolves with (publish a record the test adds). */
  dns: TestDnsServer;
  b: TestBrowser;
  page: Page;
  base: string;
  projectId: string;
  auth: { authorization: string };
  /** A request to the API with the project's key: its `data`; fails the test on anything but 2xx. */
  api(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown): Promise<ApiData>;
  /** Adds `domain` to the project, publishes its records on the test DNS server and verifies it. */
  verifyDomain(domain: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * `timezoneId`: the browser's time zone (an IANA zone), the machine's unless told; `env` over the defaults: e.g.
 * `{MAIL_TRANSPORT: 'smtp', SMTP_URL: sink.url}` to send to an SMTP sink instead of the outbox.
 */
export async function startSignedIn(
  domain: string,
  opts: { timezoneId?: string; env?: Record<string, string> } = {},
): Promise<SignedIn> {
  const dns: TestDnsServer = await startDnsServer({});
  const t = await createTestApp({
    worker: true,
    env: {
      DNS_SERVERS: dns.address,
      MAIL_TRANSPORT: 'outbox',
      SEND_RATE_PER_SECOND: '0',
      PUBLIC_URL: 'https://mail.herald.test',
      ...opts.env,
    },
  });
  const project = await t.createProject('Acme');
  const auth = project.auth;
  const api: SignedIn['api'] = async (method, url, payload) => {
    const res = await t.app.inject({
      method,
      url,
      headers: auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return (res.body ? res.json().data : {}) as ApiData;
  };
  const verifyDomain = async (name: string) => {
    const created = await api('POST', '/domains', { domain: name });
    publishDomainRecords(dns, created.records as Parameters<typeof publishDomainRecords>[1]);
    expect((await api('POST', `/domains/${created.id}/verify`)).status).toBe('VERIFIED');
  };
  await verifyDomain(domain);

  const { base, b, page } = await signedInBrowser(t, project.secretKey, { timezoneId: opts.timezoneId });
  return {
    t,
    dns,
    b,
    page,
    base,
    projectId: project.id,
    auth,
    api,
    verifyDomain,
    async close() {
      await b.close();
      await t.close();
      await dns.close();
      dropTemporaryScreenshots();
    },
  };
}

/** The project a first start makes: Default, with herald.localhost verified for the outbox. */
export async function firstRunProject(t: TestApp) {
  const created = await ensureDefaultProject({
    db: t.ctx.db,
    setup: (tx, projectId) => addLocalSenderDomain({ ctx: t.ctx, projectId, tx }),
  });
  const project = { id: created!.id, secretKey: created!.secretKey };
  const headers = { authorization: `Bearer ${project.secretKey}` };
  const post = async (url: string, payload: Record<string, unknown>) =>
    (await t.app.inject({ method: 'POST', url, headers, payload })).json().data;
  return { ...project, headers, post };
}

/** Serves the app on a port and signs a fresh Chromium in with `key`, on the Overview. */
export async function signedInBrowser(
  t: TestApp,
  key: string,
  browser: { timezoneId?: string } = {},
): Promise<{ base: string; b: TestBrowser; page: Page; u: ReturnType<typeof ui> }> {
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const b = await startBrowser({ origin: base, ...browser });
  const page = b.page;
  page.setDefaultTimeout(20_000);
  const u = ui(page);
  await page.goto(`${base}/`);
  await page.getByLabel('API key or admin token').fill(key);
  await page.getByRole('button', { name: 'Sign in with key' }).click();
  await u.heading('Overview').waitFor();
  return { base, b, page, u };
}
