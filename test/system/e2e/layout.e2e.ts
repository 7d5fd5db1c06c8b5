/**
 * Long values on every page of the dashboard, in Chromium: a project with realistic long data (a 250-character
 * address, a long URL in a contact's timeline, long names of every resource, long tag values and event names) and
 * every page of the router, list and detail, opened at 1,440×900 and at 390×844, in the light and the dark scheme.
 * No page may be wider than its window (the browser would zoom a phone out); a failure names the page and the
 * widest element. In the dark scheme the page is dark with light text.
 */
import nodemailer from 'nodemailer';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInboundReceiver } from '../../../src/modules/inbound/index.ts';
import type { SmtpListener } from '../../../src/net/smtp-listener.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { publishDomainRecords, startDnsServer, type TestDnsServer } from '../../support/dns-server.ts';
import { firstUser } from '../../support/people.ts';
import { until } from '../../support/until.ts';
import type { TestBrowser } from './browser.ts';
import { personBrowser, signInAsPerson } from './people.ts';
import { dropTemporaryScreenshots, ui } from './ui.ts';

const DOMAIN = 'newsletters.customer-communications.international-holdings-example.test';
/** A 250-character address: a long local part at a domain of several long labels (each at most 63). */
const LONG_EMAIL = (() => {
  const local = 'firstname.middlename.lastname.department-of-customer-success';
  const labels = ['regional-subsidiary-office', 'customer-communications', 'international-holdings-group'];
  let i = 0;
  while (`${local}@${labels.join('.')}.example.com`.length < 250) labels[i++ % 3] = `x${labels[(i - 1) % 3]}`;
  return `${local}@${labels.join('.')}.example.com`;
})();
const LONG_URL =
  'https://www.example.com/landing/spring-collection-2026/limited-edition-products?utm_source=newsletter' +
  '&utm_medium=email&utm_campaign=spring_collection_launch_2026_customers_who_bought_before&ref=' +
  'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0';
const LONG_EVENT = 'workflow.execution.completed.for.onboarding.sequence.of.trial.customers';
const long = (what: string) =>
  `${what} for customers of the international holdings group who signed up during the spring campaign`;
const PROJECT_NAME = 'International Holdings Group Customer Communications and Marketing Automation Department';

/** Opens `path` and waits until its heading shows and nothing is still loading. */
async function open(page: Page, base: string, path: string): Promise<void> {
  await page.goto(`${base}/app${path}`);
  await page.locator('nav#nav').waitFor({ state: 'attached' });
  await page.locator('main h1').first().waitFor();
  await until(async () => (await page.locator('main .state-loading, main .spinner').count()) === 0, `${path} loaded`);
}

/** How much wider than the window the page is, and its widest elements (deepest first) when it is. */
const OVERFLOW = `(() => {
  const width = window.innerWidth;
  const scroll = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
  if (scroll <= width) return null;
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  const wide = [...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > width + 0.5)
    .filter((el) => ![...el.children].some((c) => c.getBoundingClientRect().right > width + 0.5));
  const widest = wide.sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right).slice(0, 3);
  return { scroll, width, widest: widest.map((el) => {
    const path = [];
    for (let e = el; e && e !== document.body && path.length < 4; e = e.parentElement) path.unshift(describe(e));
    return path.join(' > ') + ' (' + Math.round(el.getBoundingClientRect().right) + 'px: ' +
      (el.textContent || '').trim().slice(0, 40) + ')';
  }) };
})()`;

/**
 * Words split across two lines anywhere on the page: runs of letters (2 to 20, no digits, so not ids or hashes) in
 * any text of at most 40 characters between spaces (words, event names, short addresses and domains). Longer values
 * may break anywhere when they must; shorter ones wrap at their separators or not at all.
 */
const SPLIT = `(() => {
  const split = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('script, style, .visually-hidden') || !el.checkVisibility()) continue;
    for (const token of node.textContent.matchAll(/\\S+/g)) {
      if (token[0].length > 40) continue;
      for (const match of token[0].matchAll(/[\\p{L}\\p{N}]+/gu)) {
        const word = match[0];
        if (word.length < 2 || word.length > 20 || /\\d/.test(word)) continue;
        const range = document.createRange();
        range.setStart(node, token.index + match.index);
        range.setEnd(node, token.index + match.index + word.length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size < 2) continue;
        split.push(word + ' of ' + token[0] + ' in <' + el.tagName.toLowerCase() + '.' + el.className + '>');
      }
    }
  }
  return split.slice(0, 5);
})()`;

/** Text cut short with an ellipsis and no tooltip (a title on it or around it) to read it whole. */
const UNTITLED_CUTS = `(() => [...document.querySelectorAll('body *')]
  .filter((el) => !['INPUT', 'SELECT', 'TEXTAREA', 'OPTION'].includes(el.tagName) && el.checkVisibility())
  .filter((el) => getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1)
  .filter((el) => !el.closest('[title]'))
  .map((el) => el.tagName.toLowerCase() + '.' + el.className + ': ' + el.textContent.trim().slice(0, 40))
  .slice(0, 5))()`;

/** The body's background and text colours, as relative luminance (0 black, 1 white). */
const COLOURS = `(() => {
  const lum = (css) => {
    const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const body = getComputedStyle(document.body);
  const panel = document.querySelector('main .panel, main .data-table');
  return {
    background: lum(body.backgroundColor),
    text: lum(body.color),
    panel: panel ? lum(getComputedStyle(panel).backgroundColor) : null,
    heading: lum(getComputedStyle(document.querySelector('main h1')).color),
  };
})()`;

describe('long values on every page in Chromium, at two widths and in both schemes', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let listener: SmtpListener;
  let b: TestBrowser;
  let page: Page;
  let base: string;
  const pages: string[] = [];

  beforeAll(async () => {
    dns = await startDnsServer({});
    t = await createTestApp({
      worker: true,
      env: {
        DNS_SERVERS: dns.address,
        MAIL_TRANSPORT: 'outbox',
        SEND_RATE_PER_SECOND: '0',
        INBOUND_MX_HOST: 'mx.herald.test',
        // Receiving is switched on only where an inbound listener runs.
        INBOUND_SMTP_PORT: '0',
      },
    });
    const project = await t.createProject(PROJECT_NAME);
    const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => {
      const res = await t.app.inject({
        method,
        url,
        headers: project.auth,
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res.json().data as Record<string, unknown> & { id: string; items: Record<string, unknown>[] };
    };
    const post = (url: string, payload: unknown) => call('POST', url, payload);

    const domain = await post('/domains', { domain: DOMAIN });
    publishDomainRecords(dns, domain.records as Parameters<typeof publishDomainRecords>[1]);
    expect((await post(`/domains/${domain.id}/verify`, {})).status).toBe('VERIFIED');
    await call('PATCH', `/domains/${domain.id}`, { receiving: true });
    const from = `customer-success-and-onboarding-notifications@${DOMAIN}`;

    const contact = await post('/contacts', {
      email: LONG_EMAIL,
      subscribed: true,
      data: {
        firstName: 'Maximilianus-Alexandrinus',
        tags: ['customer-success-enterprise-tier-annual-contract-renewal-2026', 'newsletter'],
        website: LONG_URL,
      },
    });
    await post('/v1/track', { email: LONG_EMAIL, event: LONG_EVENT, data: { url: LONG_URL } });
    await post('/v1/track', { email: LONG_EMAIL, event: 'clicked', data: { link: LONG_URL } });
    const topic = await post('/topics', {
      name: long('Product announcements and release notes'),
      description: `Everything new, explained at ${LONG_URL}`,
      defaultSubscription: 'OPT_OUT',
    });
    const layout = await post('/layouts', {
      name: long('Branded layout with footer'),
      format: 'html',
      body: `<html><body><p>${LONG_URL}</p>{{ content }}</body></html>`,
    });
    const template = await post('/templates', {
      name: long('Welcome message'),
      subject: long('Welcome aboard'),
      body: `<p>Hi {{ firstName }}, read <a href="${LONG_URL}">${LONG_URL}</a></p>`,
      type: 'TRANSACTIONAL',
      from,
    });
    const campaign = await post('/campaigns', {
      name: long('Spring collection launch'),
      subject: long('The spring collection is here'),
      body: `<p>Look: <a href="${LONG_URL}">${LONG_URL}</a></p>`,
      from,
      audienceType: 'ALL',
    });
    const segment = await post('/segments', {
      name: long('Engaged subscribers'),
      type: 'DYNAMIC',
      filter: { all: [{ field: 'data.website', operator: 'equals', value: LONG_URL }] },
    });
    const form = await post('/forms', {
      name: long('Newsletter sign-up form'),
      fields: [{ key: 'email', label: 'Email address for the newsletter of the spring collection', type: 'email' }],
    });
    const webhook = await post('/webhooks', {
      url: `https://hooks.example.com/herald/customer-communications/${'a1b2c3d4e5f6'.repeat(8)}`,
      events: ['*'],
      description: long('Forwards every event to the data warehouse'),
    });
    const transport = await post('/transports', {
      type: 'smtp',
      name: 'Relay of the international holdings group customer communications department',
      config: { host: 'smtp-relay.customer-communications.international-holdings-example.test', port: 2525 },
    });
    const workflow = await post('/workflows', {
      name: long('Onboarding sequence'),
      trigger: { type: 'EVENT', event: LONG_EVENT },
      steps: [{ type: 'SEND_EMAIL', templateId: template.id }],
    });
    const sent = await post('/v1/send', {
      to: LONG_EMAIL,
      from,
      subject: long('Your order confirmation and shipping details'),
      body: `<p>Track it at <a href="${LONG_URL}">${LONG_URL}</a></p>`,
      tags: [{ name: 'category', value: 'order-confirmation-and-shipping-details-for-enterprise-tier' }],
    });
    const emailId = (sent.emails as { email: string }[])[0]!.email;
    await until(async () => {
      const events = await call('GET', `/events?email=${encodeURIComponent(LONG_EMAIL)}`);
      return (events.items ?? []).length >= 2;
    }, 'the tracked events stored');

    listener = await startInboundReceiver(t.ctx, 0);
    await nodemailer
      .createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true })
      .sendMail({
        from: `Maximilianus Alexandrinus <${LONG_EMAIL}>`,
        to: from,
        subject: long('Re: Your order confirmation and shipping details'),
        text: `Thanks! See ${LONG_URL}`,
      });
    const inbound = await until(async () => (await call('GET', '/inbound')).items[0], 'the inbound message stored');
    // The request log is written in batches, up to a second after each request.
    const log = await until(async () => (await call('GET', '/logs')).items[0], 'a request in the request log');

    pages.push(
      '/',
      '/contacts',
      `/contacts/${contact.id}`,
      '/segments',
      `/segments/${segment.id}`,
      '/segments/new',
      '/topics',
      `/topics/${topic.id}`,
      '/forms',
      `/forms/${form.id}`,
      '/templates',
      `/templates/${template.id}`,
      '/templates/new',
      '/layouts',
      `/layouts/${layout.id}`,
      '/layouts/new',
      '/campaigns',
      `/campaigns/${campaign.id}`,
      '/campaigns/new',
      '/workflows',
      `/workflows/${workflow.id}`,
      '/workflows/new',
      '/emails',
      `/emails/${emailId}`,
      '/inbound',
      `/inbound/${inbound.id as string}`,
      '/domains',
      `/domains/${domain.id}`,
      `/domains/${domain.id}/deliverability`,
      '/webhooks',
      `/webhooks/${webhook.id}`,
      '/transports',
      `/transports/${transport.id}`,
      '/settings',
      '/team',
      '/audit-log',
      '/logs',
      `/logs/${log.id as string}`,
      '/profile',
      '/projects',
    );

    const owner = await firstUser(t, `owner.of.the.international.holdings.group.communications@${DOMAIN}`);
    ({ base, b, page } = await personBrowser(t));
    await page.goto(`${base}/`);
    await signInAsPerson(page, owner.email);
    await page
      .locator('nav#nav')
      .waitFor({ state: 'attached' })
      .catch(async (e) => {
        throw new Error(`${e}\n${await page.locator('body').innerText()}`);
      });
  });
  afterAll(async () => {
    await b?.close();
    await listener?.close();
    await t?.close();
    await dns?.close();
    dropTemporaryScreenshots();
  });

  for (const scheme of ['light', 'dark'] as const) {
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      it(`keeps every page within a ${width}px window in the ${scheme} scheme`, async () => {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height });
        const problems: unknown[] = [];
        for (const path of pages) {
          await open(page, base, path);
          const overflow = await page.evaluate(OVERFLOW);
          if (overflow) problems.push({ page: path, ...(overflow as object) });
          const split = (await page.evaluate(SPLIT)) as string[];
          if (split.length > 0) problems.push({ page: path, split });
          const cut = (await page.evaluate(UNTITLED_CUTS)) as string[];
          if (cut.length > 0) problems.push({ page: path, cut });
        }
        expect(problems).toEqual([]);
        expect(b.unexpectedErrors()).toEqual([]);
      });
    }
  }

  it('follows the dark scheme: a dark page with light text, and back', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const [path, shot] of [
      ['/', 'overview'],
      [pages.find((p) => p.startsWith('/contacts/'))!, 'contact'],
      [pages.find((p) => p.startsWith('/campaigns/') && !p.endsWith('/new'))!, 'campaign'],
      ['/settings', 'settings'],
    ] as const) {
      await open(page, base, path);
      await ui(page).screenshot(`dark-${shot}`);
      const dark = (await page.evaluate(COLOURS)) as Record<string, number>;
      expect(dark.background, path).toBeLessThan(0.05);
      expect(dark.panel, path).toBeLessThan(0.1);
      expect(dark.text, path).toBeGreaterThan(0.6);
      expect(dark.heading, path).toBeGreaterThan(0.6);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    const light = (await page.evaluate(COLOURS)) as Record<string, number>;
    expect(light.background).toBeGreaterThan(0.8);
    expect(light.text).toBeLessThan(0.05);
  });
});
