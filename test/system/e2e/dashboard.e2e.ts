/**
 * The dashboard end to end, in Debian's Chromium against a real Herald (worker on, outbox transport) on a
 * real test database, with an in-test DNS server for domain verification. One user's session, step by
 * step: each `it` continues where the one before stopped. Page errors and console errors of the whole
 * run must be none but the failed requests a step provokes on purpose.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import type { Page } from 'playwright-core';
import { startSubmissionRelay } from '../../../src/modules/relay/index.ts';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../support/app.ts';
import { startDnsServer, type TestDnsServer } from '../../support/dns-server.ts';
import { until } from '../../support/until.ts';
import { startBrowser, type TestBrowser } from './browser.ts';
import { dropTemporaryScreenshots, text, txtStrings, ui } from './ui.ts';
import { webhookSteps, workflowSteps, type Flow } from './later-steps.ts';

const PRO = Array.from(
  { length: 20 },
  (_, i) => `pro${String(i + 1).padStart(2, '0')}@customers.test,Pro ${i + 1},pro`,
);
const FREE = Array.from({ length: 4 }, (_, i) => `free${i + 1}@customers.test,Free ${i + 1},free`);
const CSV = ['email,firstName,plan', ...PRO, 'not-an-email,Broken,pro', ...FREE].join('\n');

describe('the dashboard in Chromium', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let b: TestBrowser;
  let page: Page;
  let base: string;
  let u: ReturnType<typeof ui>;
  const flow: Flow = { secretKey: '', segmentId: '', campaignId: '' };
  const visited: string[] = [];

  beforeAll(async () => {
    dns = await startDnsServer({});
    t = await createTestApp({
      worker: true,
      env: {
        DNS_SERVERS: dns.address,
        MAIL_TRANSPORT: 'outbox',
        SEND_RATE_PER_SECOND: '5',
        PUBLIC_URL: 'https://mail.herald.test',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    b = await startBrowser({ origin: base });
    page = b.page;
    page.setDefaultTimeout(20_000);
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
    u = ui(page);
  });

  afterAll(async () => {
    await b?.close();
    await t?.close();
    await dns?.close();
    dropTemporaryScreenshots();
  });

  it('refuses a wrong key with an error, then signs in with the admin token and creates a project', async () => {
    await page.goto(`${base}/`);
    await page.getByRole('heading', { name: 'Herald' }).waitFor();
    await u.checkPage('sign-in');
    b.expectFailedRequest('/contacts', 401);
    await page.getByLabel('API key or admin token').fill('sk_not-a-real-key');
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid or revoked API key' }).waitFor();

    await page.getByLabel('API key or admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await u.heading('Projects').waitFor();
    await page.getByLabel('New project name').fill('Acme');
    await page.getByRole('button', { name: 'Create project' }).click();
    const secret = page.locator('.notice.secret code').first();
    await secret.waitFor();
    flow.secretKey = await text(secret);
    expect(flow.secretKey).toMatch(/^sk_/);
    await page.getByRole('button', { name: 'Open Acme' }).click();
    await u.heading('Overview').waitFor();
    // The instance sends to the outbox: the new project starts with the local sender, verified, and can send.
    const verifiedDomains = page.locator('dt', { hasText: 'Verified domains' }).locator('xpath=following-sibling::dd');
    expect(await text(verifiedDomains)).toBe('1');
    expect(await page.getByText('To send mail, add and verify a sender domain first.').count()).toBe(0);
    expect(await page.getByLabel('Project', { exact: true }).inputValue()).not.toBe('');
    const stored = String(await page.evaluate("sessionStorage.getItem('herald.session')"));
    expect(stored).toContain(ADMIN_TOKEN);
  });

  it('adds a sender domain, shows its records to copy, and verifies it against the DNS server', async () => {
    await u.nav('Domains');
    await page.getByRole('link', { name: 'herald.localhost' }).waitFor();
    await page.getByLabel('Sender domain', { exact: true }).fill('mail.acme.test');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await u.heading('mail.acme.test').waitFor();
    await u.checkPage('domain');

    // Before anything is published the check finds no DKIM record: the record says so.
    const dkim = page.locator('li.record[data-purpose="DKIM"]');
    await page.getByRole('button', { name: 'Verify DNS records' }).click();
    await dkim.locator('.badge', { hasText: 'FAILED' }).waitFor();
    expect(await text(page.locator('.page-header .badge'))).toBe('PENDING');

    await page.getByRole('button', { name: 'Copy DKIM record value' }).click();
    await dkim.getByText('Copied').waitFor();
    const dkimValue = await text(dkim.locator('dd').nth(2).locator('code'));
    expect(dkimValue).toMatch(/^v=DKIM1; k=rsa; p=/);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(dkimValue);

    for (const record of await page.locator('li.record').all()) {
      const cells = record.locator('dd code');
      if ((await text(cells.nth(0))) !== 'TXT') continue;
      dns.setRecords(await text(cells.nth(1)), [{ type: 'TXT', data: txtStrings(await text(cells.nth(2))) }]);
    }
    await page.getByRole('button', { name: 'Verify DNS records' }).click();
    await page.locator('.page-header .badge', { hasText: 'VERIFIED' }).waitFor();
    await dkim.locator('.badge', { hasText: 'VERIFIED' }).waitFor();
    await u.screenshot('domain');
  });

  it('adds a contact, edits its data, and imports a CSV with a progress bar and its rejected row', async () => {
    await u.nav('Contacts');
    await page.getByText('No contacts yet').waitFor();
    await page.getByRole('button', { name: 'Add contact' }).click();
    const form = page.getByRole('form', { name: 'Add a contact' });
    await form.getByLabel('Email').fill('Ada@Acme.test');
    await form.getByRole('button', { name: 'Add contact' }).click();
    await u.heading('ada@acme.test').waitFor();
    await page.getByLabel('Data', { exact: true }).fill('{"firstName": "Ada", "plan": "pro"}');
    await page.getByRole('button', { name: 'Save contact' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    await u.nav('Contacts');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    await page.getByLabel(/or paste the CSV/).fill(CSV);
    await page.getByRole('button', { name: 'Start import' }).click();
    await page.locator('.import-status .badge', { hasText: 'COMPLETED' }).waitFor();
    expect(await text(page.locator('.import-status p').first())).toContain('24 created, 0 updated, 1 rejected');
    expect(await page.getByRole('progressbar', { name: 'Rows processed' }).getAttribute('value')).toBe('25');
    const rejected = page.getByRole('table', { name: 'Rejected rows' });
    expect(await text(rejected.locator('tbody tr'))).toContain('not-an-email');
    await u.checkPage('contacts with import');
    await page.getByText('25 contacts · page 1').waitFor();
    await u.screenshot('contacts');

    // Search narrows the list; the subscription filter shows the empty state.
    await page.getByLabel('Search by email').fill('ada');
    await page.getByText('1 contact · page 1').waitFor();
    await page.getByLabel('Subscription').selectOption('false');
    await page.getByText('No contact matches these filters.').waitFor();
    // Filters and search live in the address: a reload keeps them, back and forward step through them.
    await page.reload();
    await page.getByText('No contact matches these filters.').waitFor();
    expect(await page.getByLabel('Search by email').inputValue()).toBe('ada');
    expect(await page.getByLabel('Subscription').inputValue()).toBe('false');
    await page.goBack();
    await page.getByText('1 contact · page 1').waitFor();
    expect(await page.getByLabel('Subscription').inputValue()).toBe('');
    await page.goForward();
    await page.getByText('No contact matches these filters.').waitFor();
    await page.getByLabel('Search by email').fill('');
    await page.getByLabel('Subscription').selectOption('');
    await page.getByText('25 contacts · page 1').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('25 contacts · page 2').waitFor();
    // So do the cursors: a reload stays on page 2 (the last five, Ada the oldest), and Previous still goes back.
    const rows = page.getByRole('table', { name: 'Contacts' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(5);
    await page.reload();
    await page.getByText('25 contacts · page 2').waitFor();
    await page.getByRole('link', { name: 'ada@acme.test' }).waitFor();
    expect(await rows.count()).toBe(5);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('25 contacts · page 1').waitFor();
    await page.goBack();
    await page.getByText('25 contacts · page 2').waitFor();
  });

  it('builds a segment visually and shows its member count and members', async () => {
    await u.nav('Segments');
    await page.getByRole('link', { name: 'New segment' }).click();
    await u.heading('New segment').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Pro customers');
    await page.getByRole('button', { name: 'Add condition' }).click();
    const row = page.locator('li.condition').nth(1);
    await row.getByLabel('Field').selectOption('data');
    await row.getByLabel('Data key').fill('plan');
    await row.getByLabel('Operator').selectOption('equals');
    await row.getByLabel('Value').fill('pro');
    await page.getByRole('button', { name: 'Create segment' }).click();
    await page.waitForURL(/\/app\/segments\/[0-9a-f-]{36}$/);
    flow.segmentId = page.url().split('/').pop()!;
    await page.getByTestId('member-count').filter({ hasText: '21' }).waitFor();
    await page.getByText('21 members · page 1').waitFor();
    await u.checkPage('segment');
    await u.screenshot('segment');
  });

  it('writes a template with a live preview rendered by the server, and sends a test', async () => {
    await u.nav('Templates');
    await page.getByRole('link', { name: 'New template' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Welcome');
    // A sender on the template: the workflow step below sends it, and a workflow refuses a template without one.
    await page.getByLabel('From address').fill('hello@mail.acme.test');
    await page.getByLabel('Subject').fill('Welcome {{ firstName }}!');
    await page.getByTestId('preview-subject').filter({ hasText: 'Welcome Ada!' }).waitFor();
    // Styled as email is (a style element and attributes): the preview frame shows it under the dashboard's policy.
    await page
      .getByLabel('Body (HTML with Liquid)')
      .fill(
        '<style>p{margin:0}</style><h1 style="color:#2450d6">Hello {{ firstName ?? ' +
          '"there" }}</h1><p>{% if plan == "pro" %}Thanks for going pro.{% endif %}</p>',
      );
    await page.getByLabel('Sample data for the preview and test sends').fill('{"firstName": "Grace", "plan": "pro"}');
    await page.getByTestId('preview-subject').filter({ hasText: 'Welcome Grace!' }).waitFor();
    const frame = page.frameLocator('iframe[title="Rendered HTML"]');
    await frame.getByText('Thanks for going pro.').waitFor();
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.waitForURL(/\/app\/templates\/[0-9a-f-]{36}$/);
    await frame.getByText('Hello Grace').waitFor(); // the sample data stays with the saved template
    await page.getByLabel('To', { exact: true }).fill('ada@acme.test');
    await page.getByRole('button', { name: 'Send test' }).click(); // from the template's sender
    await page.getByRole('status').filter({ hasText: 'Test queued' }).waitFor();
    await u.checkPage('template');
    await u.screenshot('template');
  });

  it(
    'builds a campaign for the segment, shows its recipients, sends it and watches ' + 'progress and stats move',
    async () => {
      await u.nav('Campaigns');
      await page.getByText('No campaigns yet').waitFor();
      await page.getByRole('link', { name: 'New campaign' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Spring news');
      await page.getByLabel('From address').fill('news@mail.acme.test');
      await page.getByLabel('Subject').fill('Spring news for {{ firstName ?? "you" }}');
      await page.getByLabel('A segment').check();
      await page.getByLabel('Segment', { exact: true }).selectOption(flow.segmentId);
      await page.getByRole('button', { name: 'Create draft' }).click();
      await page.waitForURL(/\/app\/campaigns\/[0-9a-f-]{36}$/);
      flow.campaignId = page.url().split('/').pop()!;
      await page.getByTestId('recipient-count').filter({ hasText: '21' }).waitFor();
      await u.checkPage('campaign draft');
      await u.screenshot('campaign-draft');

      await page.getByRole('button', { name: 'Send now' }).click();
      await page.getByRole('button', { name: 'Send to 21 now' }).click();
      const status = page.getByTestId('campaign-status');
      await status.filter({ hasText: 'SENDING' }).waitFor();
      // Sent counts seen while it sends (5 emails a second): they only grow, and they move.
      const seen: number[] = [];
      while (!(await text(status)).includes('SENT') || seen.at(-1) !== 21) {
        const sent = page.getByTestId('stat-sent');
        if (await sent.count()) seen.push(Number(await text(sent)));
        await page.waitForTimeout(200);
      }
      expect(seen.length).toBeGreaterThan(1);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(seen[0]).toBeLessThan(21);
      expect(
        await page.getByRole('progressbar', { name: 'Emails handed to the mail server' }).getAttribute('value'),
      ).toBe('21');

      // An open of one email moves the stats: the pixel of the message as the outbox wrote it.
      const emails = (
        await t.app.inject({
          url: `/emails?sourceId=${flow.campaignId}&limit=1`,
          headers: { authorization: `Bearer ${flow.secretKey}` },
        })
      ).json().data.items as { id: string }[];
      const source = (
        await t.app.inject({
          url: `/emails/${emails[0]!.id}/source`,
          headers: { authorization: `Bearer ${flow.secretKey}` },
        })
      ).json().data.source as string;
      const pixel = /src="https:\/\/mail\.herald\.test(\/t\/o\/[^"]+)"/.exec(
        String((await simpleParser(source)).html),
      )![1]!;
      expect((await fetch(`${base}${pixel}`)).status).toBe(200);
      await page.reload();
      await page.getByTestId('stat-opened').filter({ hasText: '1' }).waitFor();
      expect(await text(page.getByTestId('stat-recipients'))).toBe('21');
      await u.checkPage('campaign sent');
      await u.screenshot('campaign-sent');
    },
  );

  it('opens a contact’s timeline with the campaign email, and the email with its message source', async () => {
    await u.nav('Contacts');
    await page.getByLabel('Search by email').fill('ada@');
    await page.getByRole('link', { name: 'ada@acme.test' }).click();
    await u.heading('ada@acme.test').waitFor();
    const timeline = page.locator('ol.timeline');
    await timeline.getByRole('link', { name: 'Spring news for Ada' }).waitFor();
    await timeline.getByRole('link', { name: '[TEST] Welcome Grace!' }).waitFor();
    // Each send is listed once: its own queued and sent events fold into its entry.
    expect(await timeline.getByText(/^email\.(queued|sent)$/).count()).toBe(0);
    expect(await timeline.getByRole('link', { name: 'Spring news for Ada' }).count()).toBe(1);
    await u.checkPage('contact');
    await u.screenshot('contact');

    await timeline.getByRole('link', { name: 'Spring news for Ada' }).click();
    await u.heading('Spring news for Ada').waitFor();
    await page.getByRole('button', { name: 'Show source' }).click();
    const raw = page.getByLabel('Raw message');
    await raw.waitFor();
    expect(await text(raw)).toMatch(/DKIM-Signature: v=1; a=rsa-sha256;[\s\S]*d=mail\.acme\.test/);
    expect(await text(raw)).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    await u.screenshot('email');
  });

  it('shows the last 30 days on the overview chart, and the email log with statuses', async () => {
    await u.nav('Overview');
    const legend = page.locator('.legend');
    await legend.getByText('Sent: 22').waitFor(); // 21 campaign emails and the template test
    await legend.getByText('Opened: 1').waitFor();
    await u.screenshot('overview');
    await page.getByText('Show the numbers').click();
    expect(await page.locator('.chart tbody tr').count()).toBe(30);
    await u.checkPage('overview');

    await u.nav('Emails');
    await page.getByText('22 emails · page 1').waitFor();
    await page.getByLabel('Status').selectOption('SENT');
    await page.getByText('22 emails · page 1').waitFor();
    await page.getByLabel('Status').selectOption('BOUNCED');
    await page.getByText('No bounced emails.').waitFor();
    await page.reload();
    await page.getByText('No bounced emails.').waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('BOUNCED');
  });

  it(
    'lists an email an app submitted over the SMTP relay (to a known contact) with ' +
      'the source SMTP, and opens it with its message source',
    async () => {
      const relay = await startSubmissionRelay(t.ctx, 0);
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: relay.port,
        secure: false,
        ignoreTLS: true,
        auth: { user: 'herald', pass: flow.secretKey },
      });
      const info = await transport
        .sendMail({
          from: '"Acme app" <app@mail.acme.test>',
          to: 'free1@customers.test',
          subject: 'Receipt over SMTP',
          text: 'Thanks for your order.',
          headers: { 'X-Order': '7' },
        })
        .finally(() => relay.close());
      const id = /queued as ([0-9a-f-]{36})$/.exec(info.response)?.[1];
      expect(id, info.response).toBeDefined();
      await until(
        async () =>
          (await t.app.inject({ url: `/emails/${id}`, headers: { authorization: `Bearer ${flow.secretKey}` } })).json()
            .data.status === 'SENT',
        'the SMTP email sent',
      );

      await page.getByLabel('Status').selectOption('SENT');
      const row = page.getByRole('row').filter({ hasText: 'Receipt over SMTP' });
      await row.getByRole('cell', { name: 'SMTP', exact: true }).waitFor();
      await row.getByRole('link', { name: 'free1@customers.test' }).click();
      await u.heading('Receipt over SMTP').waitFor();
      await page.locator('dl.details').getByText('SMTP', { exact: true }).waitFor();
      await page.locator('.badge', { hasText: 'SENT' }).waitFor();
      await page.getByRole('button', { name: 'Show source' }).click();
      const raw = page.getByLabel('Raw message');
      await raw.waitFor();
      expect(await text(raw)).toMatch(/DKIM-Signature: v=1; a=rsa-sha256;[\s\S]*d=mail\.acme\.test/);
      expect(await text(raw)).toContain('X-Order: 7');
      expect(await text(raw)).toContain('Thanks for your order.');
      await u.checkPage('email over SMTP');
    },
  );

  it('schedules a campaign for a filtered audience, then cancels it', async () => {
    await u.nav('Campaigns');
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Later');
    await page.getByLabel('From address').fill('news@mail.acme.test');
    await page.getByLabel('Subject').fill('Later news');
    await page.getByLabel('Contacts matching a filter').check();
    const row = page.locator('li.condition').first();
    await row.getByLabel('Field').selectOption('email');
    await row.getByLabel('Operator').selectOption('endsWith');
    await row.getByLabel('Value').fill('@customers.test');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByTestId('recipient-count').filter({ hasText: '24' }).waitFor();
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page
      .getByRole('alertdialog', { name: 'Schedule this campaign?' })
      .getByText('24', { exact: true })
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Yes, schedule' }).click();
    const status = page.getByTestId('campaign-status');
    await status.filter({ hasText: 'SCHEDULED' }).waitFor();
    await page.getByText(/^Scheduled for/).waitFor();
    await page.getByRole('button', { name: 'Cancel campaign' }).click();
    await page.getByRole('button', { name: 'Stop sending' }).click();
    await status.filter({ hasText: 'CANCELLED' }).waitFor();
    await u.nav('Campaigns');
    await page.getByLabel('Status').selectOption('CANCELLED');
    await page.getByText('1 campaign · page 1').waitFor();
    await page.reload();
    await page.getByText('1 campaign · page 1').waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('CANCELLED');
  });

  it('manages keys and switches projects with the admin token', async () => {
    await u.nav('Settings');
    const keys = page.getByRole('table', { name: 'API keys' });
    await keys.locator('tbody tr').nth(1).waitFor();
    expect(await keys.locator('tbody tr').count()).toBe(2); // the project's secret and public keys
    await page.getByLabel('Key name').fill('Reporting');
    await page.getByLabel('Scope').selectOption('read');
    await page.getByRole('button', { name: 'New secret key' }).click();
    expect(await text(page.getByTestId('new-key'))).toMatch(/^sk_/);
    await keys.locator('tbody tr').nth(2).waitFor();
    await keys.locator('tbody tr', { hasText: 'Reporting' }).getByRole('cell', { name: 'read', exact: true }).waitFor();
    await keys.getByRole('button', { name: 'Revoke' }).first().click();
    await keys.getByRole('button', { name: 'Yes, revoke' }).click();
    await keys.locator('.badge', { hasText: 'REVOKED' }).waitFor();
    await page.getByLabel('Open and click tracking').selectOption('NONE');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(
      (await t.app.inject({ url: '/settings', headers: { authorization: `Bearer ${flow.secretKey}` } })).json().data
        .tracking,
    ).toBe('NONE');

    await u.nav('Projects');
    await page.getByLabel('New project name').fill('Beta');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('button', { name: 'Open Beta' }).waitFor();
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Beta' });
    await u.heading('Overview').waitFor();
    await page.locator('.cards').getByText('Contacts').waitFor();
    expect(await text(page.locator('.cards > div').first().locator('dd'))).toBe('0');
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Acme' });
    await page.locator('.cards > div').first().locator('dd').filter({ hasText: '25' }).waitFor();
  });

  it('creates a workflow with a tree of steps, enables it and shows an execution with its history', async () => {
    await workflowSteps({ page, u, t, flow });
  });

  it('registers a webhook, shows its secret once, sends a test event and lists the delivery', async () => {
    await webhookSteps({ page, u, t, flow });
  });

  it('works at phone width without sideways scrolling, with the navigation behind a menu', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of [
      '/',
      '/contacts',
      '/segments/' + flow.segmentId,
      '/campaigns/' + flow.campaignId,
      '/emails',
      '/domains',
      '/templates',
    ]) {
      await page.goto(`${base}/app${path}`);
      await page.locator('main h1').waitFor();
      await page.locator('.state-loading').first().waitFor({ state: 'detached' });
      await u.checkPage(`${path} (phone)`);
    }
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await menu.click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Campaigns' }).click();
    await u.heading('Campaigns').waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await u.screenshot('phone-campaigns');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it(
    'can be used from the keyboard: a skip link, visible focus, and focus moved to ' + 'the page after navigation',
    async () => {
      await page.goto(`${base}/app/contacts`);
      await u.heading('Contacts').waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
      expect(await page.evaluate('getComputedStyle(document.activeElement).boxShadow')).not.toBe('none');
      await page.keyboard.press('Enter');
      expect(await page.evaluate('document.activeElement.id')).toBe('main');
      // Tab through the navigation to Segments and follow it with Enter.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Segments' }).focus();
      await page.keyboard.press('Enter');
      await u.heading('Segments').waitFor();
      expect(await page.evaluate('document.activeElement.id')).toBe('main');
    },
  );

  it(
    'signs out (forgetting the key and revoking the key it made) and signs in with ' + 'the project’s secret key',
    async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key or admin token').waitFor();
      expect(await page.evaluate("sessionStorage.getItem('herald.session')")).toBeNull();
      // Opening Beta made it a session key; signing out revoked it. Acme was opened with its own key, kept.
      const projects = (await t.app.inject({ url: '/admin/projects', headers: t.admin })).json().data.items as {
        id: string;
        name: string;
      }[];
      const keysOf = async (name: string) =>
        (
          await t.app.inject({
            url: `/admin/projects/${projects.find((p) => p.name === name)!.id}/keys`,
            headers: t.admin,
          })
        ).json().data.items as { type: string; revokedAt: string | null }[];
      expect(
        (await keysOf('Beta'))
          .filter((k) => k.type === 'secret')
          .map((k) => k.revokedAt !== null)
          .sort(),
      ).toEqual([false, true]);
      expect((await keysOf('Acme')).filter((k) => k.revokedAt === null)).toHaveLength(2);

      await page.getByLabel('API key or admin token').fill(flow.secretKey);
      await page.getByRole('button', { name: 'Sign in with key' }).click();
      await u.heading('Segments').waitFor(); // the page that was open
      await u.nav('Settings');
      // A full project key manages its project's keys itself: its own row cannot be revoked from here.
      await page.getByRole('table', { name: 'API keys' }).getByText('this session’s key').waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key or admin token').waitFor();
      expect(await page.evaluate("sessionStorage.getItem('herald.session')")).toBeNull();
    },
  );

  it(
    'serves the API reference and the pages of links in mail under their policies, ' + 'none of them frameable',
    async () => {
      const dashboard = await page.goto(`${base}/app/contacts`);
      expect(dashboard!.headers()['x-frame-options']).toBe('DENY');
      expect(dashboard!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await page.goto(`${base}/docs`);
      await page.locator('.opblock').first().waitFor();
      await page.locator('.opblock-summary').first().click();
      await page.locator('.opblock-body').first().waitFor();
      // A campaign email's unsubscribe page, and its form posted with the button (the policy allows forms to
      // post to the page's own origin only).
      const emails = (
        await t.app.inject({
          url: `/emails?sourceId=${flow.campaignId}&limit=1`,
          headers: { authorization: `Bearer ${flow.secretKey}` },
        })
      ).json().data.items as { id: string }[];
      const source = (
        await t.app.inject({
          url: `/emails/${emails[0]!.id}/source`,
          headers: { authorization: `Bearer ${flow.secretKey}` },
        })
      ).json().data.source as string;
      const list = (await simpleParser(source)).headers.get('list') as { unsubscribe?: { url?: string } };
      const unsubscribe = await page.goto(`${base}${new URL(list.unsubscribe!.url!).pathname}`);
      expect(unsubscribe!.headers()['content-security-policy']).toContain("default-src 'none'");
      await page.getByRole('button', { name: 'Unsubscribe' }).click();
      await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
      b.expectFailedRequest('/t/c/not.valid', 404);
      await page.goto(`${base}/t/c/not.valid`);
      await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
    },
  );

  it('had no page errors, console errors or policy violations in the whole run, and never put a key in a URL', () => {
    expect(b.unexpectedErrors()).toEqual([]);
    expect(visited.length).toBeGreaterThan(3);
    expect(
      visited.filter(
        (url) => url.includes(flow.secretKey) || url.includes(ADMIN_TOKEN) || /[?&](key|token)=/.test(url),
      ),
    ).toEqual([]);
  });
});
