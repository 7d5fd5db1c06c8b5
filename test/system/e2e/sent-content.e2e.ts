/**
 * What was sent stays visible, and a campaign's life has ways back, in Debian's Chromium against a real Herald
 * (worker on, outbox transport): an email rendered in a sandboxed frame, a sent campaign's content, a schedule
 * that asks first and can be undone, cancel worded as stop/keep sending, duplicate, and a template's sample
 * data kept across a reload. Each `it` continues where the one before stopped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { publishDomainRecords, startDnsServer, type TestDnsServer } from '../../support/dns-server.ts';
import { until } from '../../support/until.ts';
import { startBrowser, type TestBrowser } from './browser.ts';
import { dropTemporaryScreenshots, ui } from './ui.ts';

describe('sent content and campaign controls in Chromium', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let b: TestBrowser;
  let page: Page;
  let base: string;
  let u: ReturnType<typeof ui>;
  let auth: { authorization: string };
  let secretKey: string;
  const ids = { sentCampaign: '', emailId: '', draft: '', template: '' };

  const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.body ? res.json().data : null;
  };

  beforeAll(async () => {
    dns = await startDnsServer({});
    t = await createTestApp({
      worker: true,
      env: {
        DNS_SERVERS: dns.address,
        MAIL_TRANSPORT: 'outbox',
        SEND_RATE_PER_SECOND: '0',
        PUBLIC_URL: 'https://mail.herald.test',
      },
    });
    const project = await t.createProject('Acme');
    auth = project.auth;
    secretKey = project.secretKey;
    const domain = await api('POST', '/domains', { domain: 'acme.test' });
    publishDomainRecords(dns, domain.records);
    expect((await api('POST', `/domains/${domain.id}/verify`)).status).toBe('VERIFIED');
    await api('POST', '/contacts', { email: 'cam@customers.test', subscribed: true, data: { firstName: 'Cam' } });
    await api('POST', '/contacts', { email: 'dee@customers.test', subscribed: true, data: { firstName: 'Dee' } });

    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    b = await startBrowser({ origin: base });
    page = b.page;
    page.setDefaultTimeout(20_000);
    u = ui(page);
    await page.goto(`${base}/`);
    await page.getByLabel('API key or admin token').fill(secretKey);
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await u.heading('Overview').waitFor();
  });

  afterAll(async () => {
    await b?.close();
    await t?.close();
    await dns?.close();
    dropTemporaryScreenshots();
  });

  it('opens a sent email and sees it rendered in a frame that runs no scripts', async () => {
    const campaign = await api('POST', '/campaigns', {
      name: 'Spring',
      audienceType: 'ALL',
      from: 'news@acme.test',
      fromName: 'Acme News',
      subject: 'Spring for {{ firstName }}',
      body: '<h1>Hello {{ firstName }}</h1><p>Our spring news.</p><script>document.title = "ran"</script>',
    });
    ids.sentCampaign = campaign.id;
    await api('POST', `/campaigns/${campaign.id}/send`);
    await until(async () => (await api('GET', `/campaigns/${campaign.id}`)).status === 'SENT', 'the campaign SENT');
    const emails = (await api('GET', `/emails?sourceId=${campaign.id}`)).items as { id: string; to: string }[];
    ids.emailId = emails.find((e) => e.to === 'cam@customers.test')!.id;

    await page.goto(`${base}/app/emails/${ids.emailId}`);
    await page.getByTestId('content-subject').filter({ hasText: 'Spring for Cam' }).waitFor();
    const frame = page.getByTitle('Email as sent');
    expect(await frame.getAttribute('sandbox')).toBe('');
    const inner = page.frameLocator('iframe[title="Email as sent"]');
    await inner.getByRole('heading', { name: 'Hello Cam' }).waitFor();
    expect(await inner.locator('title').count()).toBe(0); // the script did not run and add one
    await page.getByText('Acme News <news@acme.test>').waitFor();
    await page.getByRole('button', { name: 'Text', exact: true }).click();
    await page.locator('pre.preview-text').filter({ hasText: 'Hello Cam' }).waitFor();
    await page.getByRole('button', { name: 'Show source' }).click();
    await page.getByLabel('Raw message').filter({ hasText: 'DKIM-Signature' }).waitFor();
    await u.checkPage('email');
  });

  it('opens the sent campaign and sees its subject, sender, audience and body', async () => {
    await page.goto(`${base}/app/campaigns/${ids.sentCampaign}`);
    await page.getByTestId('campaign-status').filter({ hasText: 'SENT' }).waitFor();
    await page.getByTestId('campaign-subject').filter({ hasText: 'Spring for {{ firstName }}' }).waitFor();
    await page.getByTestId('campaign-audience').filter({ hasText: 'All subscribed contacts' }).waitFor();
    await page.getByText('Acme News <news@acme.test>').waitFor();
    await page.frameLocator('iframe[title="Campaign body"]').getByText('Our spring news.').waitFor();
    expect(await page.getByTitle('Campaign body').getAttribute('sandbox')).toBe('');
    await u.checkPage('sent campaign');
  });

  it('asks before scheduling, naming the time and the recipients, and unschedules back to a draft', async () => {
    const draft = await api('POST', '/campaigns', {
      name: 'Summer',
      audienceType: 'ALL',
      from: 'news@acme.test',
      subject: 'Summer',
      body: '<p>Summer news</p>',
    });
    ids.draft = draft.id;
    await page.goto(`${base}/app/campaigns/${draft.id}`);
    await page.getByLabel('Send at (your time)').fill('2099-06-01T09:30');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Schedule this campaign?' });
    await dialog.waitFor();
    const said = (await dialog.textContent()) ?? '';
    expect(said).toContain('2099');
    expect(said).toMatch(/to the 2 subscribed contacts/);
    // Backing out changes nothing.
    await dialog.getByRole('button', { name: 'Not yet' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await api('GET', `/campaigns/${draft.id}`)).status).toBe('DRAFT');

    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, schedule' }).click();
    const status = page.getByTestId('campaign-status');
    await status.filter({ hasText: 'SCHEDULED' }).waitFor();
    expect((await api('GET', `/campaigns/${draft.id}`)).scheduledAt).toMatch(/^2099-06-01T/);
    await page.getByRole('button', { name: 'Unschedule' }).click();
    await status.filter({ hasText: 'DRAFT' }).waitFor();
    expect(await api('GET', `/campaigns/${draft.id}`)).toMatchObject({ status: 'DRAFT', scheduledAt: null });
  });

  it(
    'words cancelling as stop or keep sending; a cancelled campaign keeps its content ' +
      'and can be duplicated and deleted',
    async () => {
      await page.getByRole('button', { name: 'Schedule', exact: true }).click();
      await page.getByRole('button', { name: 'Yes, schedule' }).click();
      const status = page.getByTestId('campaign-status');
      await status.filter({ hasText: 'SCHEDULED' }).waitFor();
      await page.getByRole('button', { name: 'Cancel campaign' }).click();
      const confirm = page.getByRole('group', { name: 'Confirm: Cancel campaign' });
      expect(await confirm.getByRole('button').allTextContents()).toEqual(['Stop sending', 'Keep sending']);
      await confirm.getByRole('button', { name: 'Keep sending' }).click();
      expect((await api('GET', `/campaigns/${ids.draft}`)).status).toBe('SCHEDULED');
      await page.getByRole('button', { name: 'Cancel campaign' }).click();
      await page.getByRole('button', { name: 'Stop sending' }).click();
      await status.filter({ hasText: 'CANCELLED' }).waitFor();
      await page.getByTestId('campaign-subject').filter({ hasText: 'Summer' }).waitFor();
      await page.frameLocator('iframe[title="Campaign body"]').getByText('Summer news').waitFor();

      await page.getByRole('button', { name: 'Duplicate' }).click();
      await u.heading('Summer (copy)').waitFor();
      await status.filter({ hasText: 'DRAFT' }).waitFor();
      const copyId = page.url().split('/').pop()!;
      expect(copyId).not.toBe(ids.draft);
      expect(await page.getByLabel('Subject').inputValue()).toBe('Summer');

      await page.goto(`${base}/app/campaigns/${ids.draft}`);
      await page.getByRole('button', { name: 'Delete campaign' }).click();
      await page.getByRole('button', { name: 'Yes, delete campaign' }).click();
      await u.heading('Campaigns').waitFor();
      expect((await t.app.inject({ url: `/campaigns/${ids.draft}`, headers: auth })).statusCode).toBe(404);
    },
  );

  it("keeps a template's sample data: edited, saved, still there after a reload, and used by the preview", async () => {
    const template = await api('POST', '/templates', {
      name: 'Welcome',
      type: 'TRANSACTIONAL',
      subject: 'Hi {{ firstName }}',
      body: '<p>You logged in {{ logins }} times</p>',
    });
    await page.goto(`${base}/app/templates/${template.id}`);
    const sample = page.getByLabel('Sample data for the preview and test sends');
    await sample.fill('{ "firstName": "Grace", "logins": 42 }');
    await page.getByTestId('preview-subject').filter({ hasText: 'Hi Grace' }).waitFor();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await page.reload();
    await page.getByTestId('preview-subject').filter({ hasText: 'Hi Grace' }).waitFor();
    expect(JSON.parse(await sample.inputValue())).toEqual({ firstName: 'Grace', logins: 42 });
    await page.frameLocator('iframe[title="Rendered HTML"]').getByText('You logged in 42 times').waitFor();
    // A contact instead of the sample: its data renders.
    await page.getByLabel('Preview as a contact (address)').fill('dee@customers.test');
    await page.getByRole('button', { name: 'Use contact' }).click();
    await page.getByTestId('preview-subject').filter({ hasText: 'Hi Dee' }).waitFor();
    expect(b.unexpectedErrors()).toEqual([]);
  });
});
