/**
 * How the dashboard reads, at 1280×800 and at 390×844 (a phone): no console errors, no word split across
 * lines in headers, labels and buttons, icons in the navigation, and the overview chart with its labels inside
 * it, readable text and a tooltip. Then the pages people reach from mail (unsubscribe) and the API reference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createUnsubscribeToken } from '../../../src/mail/links.ts';
import { APP_SECRET, createTestApp, type TestApp } from '../../support/app.ts';
import { startDnsServer, type TestDnsServer } from '../../support/dns-server.ts';
import { until } from '../../support/until.ts';
import type { TestBrowser } from './browser.ts';
import { firstRunProject, signedInBrowser } from './signed-in.ts';
import { CRAMPED, SPLIT_WORDS } from './look.ts';
import type { ui } from './ui.ts';

/** Axis labels of the chart that stick out of it, and the smallest label height in screen pixels. */
const CHART_TEXT = `(() => {
  const svg = document.querySelector('.chart svg').getBoundingClientRect();
  const ticks = [...document.querySelectorAll('.chart svg text.tick')].map((t) => t.getBoundingClientRect());
  return {
    outside: ticks.filter((r) => r.left < svg.left - 0.5 || r.right > svg.right + 0.5).length,
    smallest: Math.min(...ticks.map((r) => r.height)),
    count: ticks.length,
  };
})()`;

const PAGES = ['Overview', 'Contacts', 'Topics', 'Templates', 'Campaigns', 'Emails', 'Domains', 'Settings'];

describe("the dashboard's look in Chromium", () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let b: TestBrowser;
  let page: Page;
  let base: string;
  let u: ReturnType<typeof ui>;
  let project: { id: string; secretKey: string };
  let domainId: string;
  let contactId: string;
  let campaignId: string;

  beforeAll(async () => {
    dns = await startDnsServer({});
    t = await createTestApp({
      worker: true,
      env: { DNS_SERVERS: dns.address, MAIL_TRANSPORT: 'outbox', SEND_RATE_PER_SECOND: '0' },
    });
    const first = await firstRunProject(t);
    project = first;
    const { headers, post } = first;
    for (const to of ['ann@example.com', 'bob@example.com', 'cy@example.com']) {
      await post('/v1/send', { to, from: 'hello@herald.localhost', subject: 'Hello', body: '<p>Hi</p>' });
    }
    contactId = (await post('/contacts', { email: 'dee@example.com', subscribed: true })).id;
    await post('/topics', { name: 'Product news', description: 'Monthly', defaultSubscription: 'OPT_OUT' });
    await post('/templates', {
      name: 'Welcome',
      subject: 'Hi',
      body: '<p>Hi</p>',
      type: 'TRANSACTIONAL',
      from: 'hello@herald.localhost',
    });
    campaignId = (
      await post('/campaigns', {
        name: 'Launch',
        subject: 'Launch',
        body: '<p>New</p>',
        from: 'hello@herald.localhost',
        audienceType: 'ALL',
      })
    ).id;
    // A domain verified by its DKIM record alone: SPF and DMARC are missing.
    const domain = await post('/domains', { domain: 'news.example' });
    domainId = domain.id;
    const dkim = (domain.records as { purpose: string; name: string; value: string; values?: string[] }[]).find(
      (r) => r.purpose === 'DKIM',
    )!;
    dns.setRecords(dkim.name, [{ type: 'TXT', data: dkim.values ?? [dkim.value] }]);
    expect((await post(`/domains/${domainId}/verify`, {})).status).toBe('VERIFIED');
    await until(async () => {
      const stats = (await t.app.inject({ method: 'GET', url: '/emails/stats?days=30', headers })).json().data;
      return stats.totals.sent >= 3;
    }, 'three emails sent');

    ({ base, b, page, u } = await signedInBrowser(t, project.secretKey));
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
    await dns?.close();
  });

  const openPage = async (label: string, phone: boolean) => {
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });
    if (phone && !(await link.isVisible())) await page.getByRole('button', { name: 'Menu' }).click();
    await u.nav(label);
    await page
      .locator('.state, .spinner')
      .first()
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
  };

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    const phone = width < 700;
    it(
      `breaks no word in headers, labels or buttons, squeezes no select ` +
        `or button, at ${width}×${height}, and shows icons`,
      async () => {
        await page.setViewportSize({ width, height });
        for (const label of PAGES) {
          await openPage(label, phone);
          await page.locator('main table, main .panel, main .records').first().waitFor();
          expect(await page.evaluate(SPLIT_WORDS), `${label} at ${width}px`).toEqual([]);
          expect(await page.evaluate(CRAMPED), `${label} at ${width}px`).toEqual([]);
          await u.checkPage(`${label} at ${width}px`);
        }
        // The topic form (its select of defaults) and a contact's page with its topics, confirmation and export.
        await openPage('Topics', phone);
        await page.getByRole('button', { name: 'New topic' }).click();
        await page.getByLabel('Default').waitFor();
        expect(await page.evaluate(SPLIT_WORDS), `new topic at ${width}px`).toEqual([]);
        expect(await page.evaluate(CRAMPED), `new topic at ${width}px`).toEqual([]);
        await page.goto(`${base}/app/contacts/${contactId}`);
        await page.getByRole('button', { name: 'Save topics' }).waitFor();
        await page
          .getByRole('heading', { name: 'Confirmation' })
          .locator('..')
          .getByText('Not signed up with double opt-in.')
          .waitFor();
        expect(await page.evaluate(SPLIT_WORDS), `contact page at ${width}px`).toEqual([]);
        expect(await page.evaluate(CRAMPED), `contact page at ${width}px`).toEqual([]);
        const nav = page.getByRole('navigation', { name: 'Main' });
        if (phone && !(await nav.isVisible())) await page.getByRole('button', { name: 'Menu' }).click();
        expect(await nav.locator('a svg.lucide').count()).toBe(await nav.locator('a').count());
        expect(await page.locator('header button svg.lucide').count()).toBeGreaterThanOrEqual(1);
      },
    );

    it(`draws the overview chart readable at ${width}px, every label inside it, with a tooltip`, async () => {
      await page.setViewportSize({ width, height });
      await openPage('Overview', phone);
      const svg = page.locator('.chart svg');
      await svg.waitFor();
      const text = (await page.evaluate(CHART_TEXT)) as { outside: number; smallest: number; count: number };
      expect(text.count).toBeGreaterThan(3);
      expect(text.outside).toBe(0);
      expect(text.smallest).toBeGreaterThanOrEqual(10);
      // The getting-started checklist above it can push the chart below the fold.
      await svg.scrollIntoViewIfNeeded();
      const box = (await svg.boundingBox())!;
      await page.mouse.click(box.x + box.width - 13, box.y + box.height / 2); // the last day
      const tooltip = page.getByRole('tooltip');
      await tooltip.waitFor();
      const today = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date());
      expect(await tooltip.locator('strong').textContent()).toBe(today);
      expect(await tooltip.textContent()).toMatch(/Sent\s*3/);
      const tip = (await tooltip.boundingBox())!;
      expect(tip.x).toBeGreaterThanOrEqual(0);
      expect(tip.x + tip.width).toBeLessThanOrEqual(width);
      // The numbers table says the day the same way.
      await page.getByText('Show the numbers').click();
      expect(await page.locator('.chart table tbody th').last().textContent()).toBe(today);
      await page.getByText('Show the numbers').click();
    });
  }

  it("squeezes nothing in a campaign's send panel with the local-time choice open, at either width", async () => {
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${base}/app/campaigns/${campaignId}`);
      await page.getByLabel('Deliver').selectOption('local');
      await page.getByLabel('Time', { exact: true }).waitFor();
      expect(await page.evaluate(SPLIT_WORDS), `campaign at ${width}px`).toEqual([]);
      expect(await page.evaluate(CRAMPED), `campaign at ${width}px`).toEqual([]);
      await u.checkPage(`campaign send panel at ${width}px`);
    }
  });

  it('finds a select too narrow for its options (the check above can fail)', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openPage('Emails', false);
    await page.locator('main select').first().waitFor();
    await page.addStyleTag({ content: 'main select { width: 40px !important; min-width: 0 !important }' });
    expect(((await page.evaluate(CRAMPED)) as string[]).some((problem) => problem.startsWith('select '))).toBe(true);
    await page.reload();
  });

  it('shows recommended records of a verified domain as a warning with the reason, never FAILED', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/app/domains/${domainId}`);
    await u.heading('news.example').waitFor();
    const dmarc = page.locator('.record[data-purpose="DMARC"]');
    await dmarc.waitFor();
    expect(await dmarc.locator('.badge').textContent()).toBe('NOT SET UP');
    expect(await dmarc.locator('.badge-bad').count()).toBe(0);
    expect(await dmarc.textContent()).toContain('recommended');
    expect(await dmarc.getByTestId('record-reason').textContent()).toBe(
      'Recommended — no TXT record found at _dmarc.news.example.',
    );
    expect(await page.locator('.record[data-purpose="DKIM"] .badge').textContent()).toBe('VERIFIED');
    // The outbox sends nothing out: no SPF record is suggested, and the page says why and what to publish instead.
    expect(await page.locator('.record[data-purpose="SPF"]').count()).toBe(0);
    expect(await page.getByTestId('no-spf').textContent()).toMatch(
      /^No SPF record is suggested for news\.example: this Herald does not know which servers send its mail\./,
    );
  });

  it('names the sender on the unsubscribe page and resubscribes with a plain form', async () => {
    const token = createUnsubscribeToken(APP_SECRET, { projectId: project.id, contactId });
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${base}/unsubscribe/${token}`);
      // The project is still called Default: recipients see its verified sender domain instead of the placeholder.
      expect(await page.locator('.from').textContent()).toBe('Emails from news.example');
      expect(await page.locator('link[rel="icon"]').count()).toBe(1);
      await page.getByRole('button', { name: 'Unsubscribe' }).click();
      await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
      await page.getByRole('button', { name: 'Resubscribe' }).click();
      await page.getByRole('heading', { name: 'You are subscribed again' }).waitFor();
      const contact = (
        await t.app.inject({
          method: 'GET',
          url: `/contacts/${contactId}`,
          headers: { authorization: `Bearer ${project.secretKey}` },
        })
      ).json().data;
      expect(contact.subscribed).toBe(true);
    }
  });

  it('brands the API reference and lists the public API first, Health and Admin last', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/docs`);
    await page.locator('.opblock-tag').first().waitFor();
    expect(await page.title()).toBe('Herald API reference');
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/favicon\.svg$/);
    expect(await page.locator('.topbar img').getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    // Swagger UI virtualizes a long operation list: only sections near the viewport are in the page. Scroll
    // through it a screen at a time and note each section in the order it first appears.
    const sections: string[] = [];
    for (let atEnd = false; !atEnd; ) {
      // Cast: @types/react (which the resend SDK's types import) declares SVGElement and HTMLElement as empty stubs.
      const shown = await page
        .locator('.opblock-tag')
        .evaluateAll((tags) =>
          tags.map(
            (tag) => (tag as unknown as { getAttribute(name: string): string | null }).getAttribute('data-tag') ?? '',
          ),
        );
      for (const tag of shown) if (!sections.includes(tag)) sections.push(tag);
      atEnd = await page.evaluate(() => {
        const view = globalThis as unknown as {
          scrollY: number;
          innerHeight: number;
          scrollBy(x: number, y: number): void;
          document: { documentElement: { scrollHeight: number } };
        };
        const done = view.scrollY + view.innerHeight >= view.document.documentElement.scrollHeight - 1;
        view.scrollBy(0, view.innerHeight / 2);
        return done;
      });
      // The virtualizer renders on the scroll event's next frame.
      await page.evaluate(
        () =>
          new Promise((resolve) =>
            (globalThis as unknown as { requestAnimationFrame(f: () => void): void }).requestAnimationFrame(() =>
              (globalThis as unknown as { requestAnimationFrame(f: () => void): void }).requestAnimationFrame(() =>
                resolve(null),
              ),
            ),
          ),
      );
    }
    expect(sections[0]).toBe('Public');
    expect(sections.slice(-2)).toEqual(['Health', 'Admin']);
    const doc = (await (await fetch(`${base}/docs/json`)).json()) as { tags: { name: string }[] };
    expect(sections).toEqual(doc.tags.map((tag) => tag.name));
    expect(b.unexpectedErrors()).toEqual([]);
  });
});
