/**
 * Transports, routing and warm-up in Chromium: an SMTP transport added against a real SMTP server and tested (it
 * connects, its password saved and never shown), another on a closed port whose test fails with the reason; a
 * routing rule with a fallback (a loop refused at its field first), the "which transport" tester, a routed transport
 * refused deletion with the server's 409; a domain's limits per provider, its warm-up with the ramp chart, and its
 * throughput; a campaign held by the warm-up says so. No page is wider than its window at 1440 and 390 px.
 */
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/child.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { screenshotDir, text, ui } from './ui.ts';

const DOMAIN = 'transports.test';

describe('transports, routing and warm-up in Chromium', () => {
  let s: SignedIn;
  let page: Page;
  let sink: SmtpSink;
  let relayId = '';
  let brokenId = '';
  let domainId = '';

  beforeAll(async () => {
    sink = await startSmtpSink();
    s = await startSignedIn(DOMAIN);
    page = s.page;
    domainId = ((await s.api('GET', '/domains')).items[0]!.id as string) ?? '';
  });
  afterAll(async () => {
    await s?.close();
    await sink?.close();
  });

  /** A screenshot of one part of the page, for the docs (E2E_SCREENSHOTS_DIR). */
  const shoot = async (part: Locator, name: string) => {
    await part.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await part.screenshot({ path: path.join(screenshotDir, `${name}.png`), animations: 'disabled' });
  };

  /** Adds an SMTP transport through the form and lands on its page: its id. */
  const addSmtp = async (name: string, port: number, login?: { username: string; password: string }) => {
    await ui(page).nav('Transports');
    await page.getByRole('button', { name: 'Add transport' }).click();
    const form = page.getByRole('form', { name: 'New transport' });
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Type').selectOption('smtp');
    await form.getByLabel('Host').fill('127.0.0.1');
    await form.getByLabel('Port', { exact: true }).fill(String(port));
    if (login) {
      await form.getByLabel('Username').fill(login.username);
      await form.getByLabel('Password').fill(login.password);
    }
    await form.getByRole('button', { name: 'Create transport' }).click();
    await page.waitForURL(/\/app\/transports\/[^/]+$/);
    await ui(page).heading(name).waitFor();
    return page.url().split('/').pop()!;
  };

  it('adds an SMTP transport on a real SMTP server: its test connects; its password is kept, never shown', async () => {
    await ui(page).nav('Transports');
    const builtIn = page.getByRole('row').filter({ hasText: 'BUILT-IN' });
    await builtIn.getByText('HEALTHY').waitFor();

    relayId = await addSmtp('Relay', sink.port, { username: 'relay-user', password: 'relay-secret-1' });
    await page.getByTestId('secret-saved').waitFor();
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    const saved = await s.api('GET', `/transports/${relayId}`);
    expect(saved.config).toMatchObject({
      host: '127.0.0.1',
      port: sink.port,
      username: 'relay-user',
      hasPassword: true,
    });
    expect(JSON.stringify(saved)).not.toContain('relay-secret-1');

    await page.getByRole('button', { name: 'Test connection' }).click();
    const result = page.getByTestId('test-result');
    await result.filter({ hasText: 'Connection works' }).waitFor();
    expect(await text(result)).toContain('AUTH accepted for relay-user');
    await ui(page).checkPage('a transport');
    await shoot(page.locator('main'), 'transports-smtp');
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('adds one on a closed port: its test fails and says why', async () => {
    const closed = await freePort();
    brokenId = await addSmtp('Broken relay', closed);
    await page.getByRole('button', { name: 'Test connection' }).click();
    const result = page.getByTestId('test-result');
    await result.filter({ hasText: 'Connection failed' }).waitFor();
    expect(await text(result)).toMatch(/ECONNREFUSED|refused/i);

    await ui(page).nav('Transports');
    const rows = page.getByRole('row');
    await rows.filter({ hasText: 'Broken relay' }).waitFor();
    await rows.filter({ hasText: 'Relay' }).first().waitFor();
    await ui(page).checkPage('the transports');
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('saves a routing rule with a fallback (a loop refused at its field first), and the tester answers', async () => {
    await ui(page).nav('Settings');
    const routing = page.getByRole('form', { name: 'Routing rules' });
    await routing.getByText('No rules').waitFor();
    await routing.getByRole('button', { name: 'Add rule' }).click();
    const rule = routing.getByRole('group', { name: 'Rule 1' });
    await rule.getByLabel('Stream').selectOption('marketing');
    await rule.getByLabel('Send with').selectOption(brokenId);
    await rule.getByRole('button', { name: 'Add fallback' }).click();
    // A fallback that is the rule's own transport is a loop: the server's 422 shows at that field.
    await rule.getByLabel('Fallback 1', { exact: true }).selectOption(brokenId);
    s.b.expectFailedRequest('/routing', 422);
    await routing.getByRole('button', { name: 'Save routing' }).click();
    await rule.locator('.field-error').filter({ hasText: /loop/ }).waitFor();
    expect(await rule.getByLabel('Fallback 1', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await rule.getByLabel('Fallback 1', { exact: true }).selectOption(relayId);
    await routing.getByRole('button', { name: 'Save routing' }).click();
    await routing.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await s.api('GET', '/routing')).toMatchObject({
      defaultTransportId: 'default',
      rules: [{ match: { stream: 'marketing' }, transportId: brokenId, fallbackIds: [relayId] }],
    });

    const tester = page.getByRole('form', { name: 'Route tester' });
    await tester.getByLabel('From').fill(`news@${DOMAIN}`);
    await tester.getByLabel('To').fill('ada@gmail.com');
    await tester.getByLabel('Stream').selectOption('marketing');
    await tester.getByRole('button', { name: 'Find the transport' }).click();
    const answer = page.getByTestId('route-answer');
    await answer.filter({ hasText: 'rule 1 matches' }).waitFor();
    expect(await text(page.getByTestId('route-transport'))).toBe('Broken relay');
    expect(await text(answer)).toMatch(/provider: gmail[\s\S]*fallbacks in order: Relay/);
    await ui(page).checkPage('settings with routing');
    await shoot(page.locator('section.routing'), 'transports-routing');
    await shoot(page.locator('section').filter({ has: tester }), 'transports-route-tester');

    await tester.getByLabel('Stream').selectOption('transactional');
    await tester.getByRole('button', { name: 'Find the transport' }).click();
    await answer.filter({ hasText: 'no rule matches' }).waitFor();
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('marketing mail over the rule: the broken transport goes DOWN with its error, the mail fails over', async () => {
    for (let i = 0; i < 8; i++) {
      await s.api('POST', '/v1/send', {
        to: `reader${i}@gmail.com`,
        from: `news@${DOMAIN}`,
        subject: 'News',
        body: '<p>News</p>',
        stream: 'marketing',
        subscribed: true,
      });
    }
    await until(async () => (await s.api('GET', `/transports/${brokenId}`)).state === 'DOWN', 'Broken relay DOWN');
    await sink.waitForMessages(1, 30_000);
    await until(
      async () => ((await s.api('GET', `/transports/${brokenId}`)).failovers as number) > 0,
      'a failover counted',
    );

    await ui(page).nav('Transports');
    const broken = page.getByRole('row').filter({ hasText: 'Broken relay' });
    await broken.getByText('DOWN').waitFor();
    expect(await text(broken)).toMatch(/ECONNREFUSED|refused/i);
    await ui(page).checkPage('the transports');
    await shoot(page.locator('main'), 'transports-list');

    await broken.getByRole('link', { name: 'Broken relay' }).click();
    await ui(page).heading('Broken relay').waitFor();
    // The page may first show what the list had fetched, then its own fresher read.
    await expect
      .poll(async () => Number((await text(page.getByTestId('failovers'))).split(' ')[0]), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await shoot(page.locator('section[aria-labelledby="health-title"]'), 'transports-down');
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('refuses to delete a transport the routing uses, with the server’s reason', async () => {
    await page.goto(`${s.base}/app/transports/${brokenId}`);
    await ui(page).heading('Broken relay').waitFor();
    s.b.expectFailedRequest(`/transports/${brokenId}`, 409);
    await page.getByRole('button', { name: 'Delete transport' }).click();
    await page.getByRole('button', { name: 'Yes, delete transport' }).click();
    const error = page.locator('[role="alert"][data-status="409"]');
    await error.waitFor();
    expect(await text(error)).toMatch(/rul|rout/i);
    expect((await s.api('GET', `/transports/${brokenId}`)).id).toBe(brokenId);
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('sets a domain’s limit per provider and its warm-up, and shows the ramp and the throughput', async () => {
    await page.goto(`${s.base}/app/domains/${domainId}`);
    await ui(page).heading(DOMAIN).waitFor();

    await page.getByLabel('Gmail per hour').fill('2000');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await page.getByRole('form', { name: 'Limits per mailbox provider' }).getByRole('status').waitFor();
    expect((await s.api('GET', `/domains/${domainId}`)).providerLimits).toEqual({ gmail: 2000 });

    const warmup = page.getByRole('form', { name: 'Warm-up' });
    await warmup.getByLabel(`Warm up ${DOMAIN}`).check();
    await warmup.getByRole('button', { name: 'Save warm-up' }).click();
    await page.getByTestId('warmup-day').filter({ hasText: '1' }).waitFor();
    expect(await text(page.getByTestId('warmup-cap'))).toBe('50');
    const ramp = page.locator('figure.ramp-chart');
    await ramp.locator('[data-day="1"].ramp-today').waitFor();
    expect(await ramp.locator('svg g[data-day]').count()).toBe(12);

    // Mail from the domain counts against today's cap and shows in the throughput, per provider.
    const sentToday = async () =>
      ((await s.api('GET', `/domains/${domainId}`)).warmup as { sentToday: number }).sentToday;
    const before = await sentToday();
    expect(await text(page.getByTestId('warmup-sent'))).toBe(String(before));
    await s.api('POST', '/v1/send', { to: 'ada@gmail.com', from: `hello@${DOMAIN}`, subject: 'Hi', body: '<p>Hi</p>' });
    await until(async () => (await sentToday()) === before + 1, 'the email counted in the warm-up');
    await page.reload();
    await page
      .getByTestId('warmup-sent')
      .filter({ hasText: String(before + 1) })
      .waitFor();
    const gmail = page.getByRole('row').filter({ hasText: 'Gmail' });
    await gmail.getByText('2,000').waitFor();
    await until(async () => {
      await page.reload();
      await ui(page).heading(DOMAIN).waitFor();
      return (await page.locator('section[aria-labelledby="throughput-title"] .chart svg polyline').count()) > 0;
    }, 'the throughput chart');

    await ui(page).checkPage('a domain with its warm-up');
    await shoot(page.locator('section[aria-labelledby="warmup-title"]'), 'transports-warmup');
    await shoot(page.locator('section[aria-labelledby="throughput-title"]'), 'transports-throughput');
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('says a campaign over the day’s warm-up cap waits for the next day', async () => {
    // Today's cap of 1 is spent: the campaign's mail waits for tomorrow's allowance.
    await s.api('PATCH', `/domains/${domainId}`, { warmup: { enabled: true, schedule: [1, 2, 4] } });
    const id = (
      await s.api('POST', '/campaigns', {
        name: 'Launch',
        audienceType: 'ALL',
        subject: 'Launch',
        from: `news@${DOMAIN}`,
        body: '<p>Launch</p><a href="{{unsubscribeUrl}}">Unsubscribe</a>',
      })
    ).id;
    await s.api('POST', `/campaigns/${id}/send`);
    await until(async () => (await s.api('GET', `/campaigns/${id}`)).waitingFor === 'warmup', 'the campaign waiting');
    await page.goto(`${s.base}/app/campaigns/${id}`);
    const notice = page.getByTestId('waiting-for');
    await notice.filter({ hasText: 'Waiting for the domain’s warm-up allowance (next day)' }).waitFor();
    await shoot(notice, 'transports-campaign-waiting');
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('keeps every new page within its window at 1440 and 390 px', async () => {
    const pages = [
      ['/transports', 'Transports'],
      [`/transports/${relayId}`, 'Relay'],
      ['/transports/default', null],
      ['/settings', 'Settings'],
      [`/domains/${domainId}`, DOMAIN],
    ] as const;
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [to, heading] of pages) {
        await page.goto(`${s.base}/app${to}`);
        if (heading) await ui(page).heading(heading).waitFor();
        else await page.getByTestId('transport-state').first().waitFor();
        await until(async () => (await page.locator('.state-loading').count()) === 0, `${to} loaded`);
        await ui(page).checkLook(`${to} at ${width}px`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(s.b.unexpectedErrors()).toEqual([]);
  });
});
