/**
 * Inbound mail in the dashboard, in Debian's Chromium against a real Herald and a real SMTP listener: the
 * domain page's "Receive mail" toggle and MX record, the Inbound list and search, and a message page that shows
 * the verdicts, the replied email, attachments to download, and the HTML in a script-less sandbox whose remote
 * images load only after "Show images".
 */
import nodemailer from 'nodemailer';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInboundReceiver } from '../../../src/modules/inbound/index.ts';
import type { SmtpListener } from '../../../src/net/smtp-listener.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { publishDomainRecords, startDnsServer, type TestDnsServer } from '../../support/dns-server.ts';
import { startBrowser, type TestBrowser } from './browser.ts';
import { dropTemporaryScreenshots, text, ui } from './ui.ts';

// The remote image's host does not resolve: the browser's attempt to load it shows as a failed request on the
// console (Playwright cannot intercept requests of a sandboxed srcdoc frame), which is what the test watches.
const IMAGE_HOST = 'img.acme-cdn.test';
const imageAttempts = (b: TestBrowser) => b.unexpectedErrors().filter((e) => e.includes(IMAGE_HOST));

describe('inbound mail in the dashboard', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let b: TestBrowser;
  let page: Page;
  let base: string;
  let listener: SmtpListener;
  let u: ReturnType<typeof ui>;
  let auth: { authorization: string };
  let secretKey: string;
  let domainId: string;
  let sentEmailId: string;

  beforeAll(async () => {
    dns = await startDnsServer({});
    t = await createTestApp({
      env: {
        DNS_SERVERS: dns.address,
        MAIL_TRANSPORT: 'outbox',
        PUBLIC_URL: 'https://mail.herald.test',
        INBOUND_MX_HOST: 'mx.herald.test',
        INBOUND_SMTP_PORT: '0',
      },
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const project = await t.createProject('Support');
    auth = project.auth;
    secretKey = project.secretKey;
    const created = (
      await t.app.inject({ method: 'POST', url: '/domains', headers: auth, payload: { domain: 'help.acme.test' } })
    ).json().data;
    domainId = created.id;
    publishDomainRecords(dns, created.records);
    expect(
      (await t.app.inject({ method: 'POST', url: `/domains/${domainId}/verify`, headers: auth })).json().data.status,
    ).toBe('VERIFIED');
    const sent = await t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: auth,
      payload: { to: 'ann@customer.test', from: 'desk@help.acme.test', subject: 'Your ticket', body: '<p>Hi</p>' },
    });
    sentEmailId = sent.json().data.emails[0].email;
    listener = await startInboundReceiver(t.ctx, 0);
    b = await startBrowser({ origin: base });
    page = b.page;
    page.setDefaultTimeout(20_000);
    u = ui(page);
  });

  afterAll(async () => {
    await b?.close();
    await listener?.close();
    await t?.close();
    await dns?.close();
    dropTemporaryScreenshots();
  });

  it('turns "Receive mail" on from the domain page and shows the MX record to publish', async () => {
    await page.goto(`${base}/`);
    await page.getByLabel('API key or admin token').fill(secretKey);
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await u.heading('Overview').waitFor();
    await page.goto(`${base}/app/domains/${domainId}`);
    await u.heading('help.acme.test').waitFor();
    const toggle = page.getByLabel(/Receive mail at any address/);
    expect(await toggle.isChecked()).toBe(false);
    // A controlled box: it shows checked once the server said yes.
    await toggle.click();
    const mx = page.locator('li.record[data-purpose="INBOUND"]');
    await mx.waitFor();
    expect(await toggle.isChecked()).toBe(true);
    expect(await text(mx.locator('dd code').nth(0))).toBe('MX');
    expect(await text(mx.locator('dd code').nth(2))).toBe('10 mx.herald.test');
    // Mail reaches Herald only through it: required to receive, though the domain sends without it.
    expect(await text(mx.locator('h3'))).toBe('MX (receiving mail) required to receive mail');
    expect(
      (await t.app.inject({ method: 'GET', url: `/domains/${domainId}`, headers: auth })).json().data.receiving,
    ).toBe(true);
    await u.checkPage('domain with receiving');
  });

  it(
    'lists received mail with search, and shows a message with its verdicts, reply ' +
      'link, attachment and sandboxed HTML',
    async () => {
      const messageId = (await t.app.inject({ method: 'GET', url: `/emails/${sentEmailId}`, headers: auth })).json()
        .data.messageId as string;
      const smtp = nodemailer.createTransport({
        host: '127.0.0.1',
        port: listener.port,
        secure: false,
        ignoreTLS: true,
      });
      await smtp.sendMail({
        from: 'Other <other@customer.test>',
        to: 'desk@help.acme.test',
        subject: 'Unrelated question',
        text: 'Hello?',
      });
      await smtp.sendMail({
        from: 'Ann <ann@customer.test>',
        to: 'desk@help.acme.test',
        subject: 'Re: Your ticket',
        inReplyTo: messageId,
        references: [messageId],
        text: 'Thanks!',
        html:
          `<p id="body">Thanks for the <b>fix</b>!</p><img alt="tracker" ` +
          `src="https://${IMAGE_HOST}/open.png"><script>document.title = ` +
          `"pwned"</script>`,
        attachments: [{ filename: 'notes.txt', content: 'all good\n' }],
      });

      await u.nav('Inbound');
      const rows = page.getByRole('table', { name: 'Received messages' }).locator('tbody tr');
      await rows.nth(1).waitFor();
      expect(await rows.count()).toBe(2);
      await page.getByLabel('Search sender or subject').fill('ticket');
      await page.waitForURL(/search=ticket/);
      await rows.filter({ hasText: 'Re: Your ticket' }).waitFor();
      await expect.poll(() => rows.count()).toBe(1);
      await u.checkPage('inbound');

      await rows.getByRole('link').first().click();
      await u.heading('Re: Your ticket').waitFor();
      expect(await text(page.locator('.verdicts'))).toMatch(/SPF\s*\w+\s*DKIM\s*NONE\s*DMARC\s*\w+/);
      await page.getByRole('link', { name: 'the email you sent' }).waitFor();
      expect(await page.getByRole('link', { name: 'the email you sent' }).getAttribute('href')).toContain(
        `/emails/${sentEmailId}`,
      );

      const frame = page.locator('iframe[title="Message HTML"]');
      expect(await frame.getAttribute('sandbox')).toBe('');
      const inner = page.frameLocator('iframe[title="Message HTML"]');
      await inner.locator('#body').waitFor();
      expect(await text(inner.locator('#body'))).toBe('Thanks for the fix!');
      expect(await page.title()).not.toBe('pwned');
      expect(await inner.locator('img[alt="tracker"]').getAttribute('src')).toBeNull();
      expect(imageAttempts(b)).toEqual([]);

      await page.getByRole('button', { name: 'Show images' }).click();
      await expect.poll(() => imageAttempts(b).length).toBe(1);
      expect(
        await page.frameLocator('iframe[title="Message HTML"]').locator('img[alt="tracker"]').getAttribute('src'),
      ).toBe(`https://${IMAGE_HOST}/open.png`);

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download notes.txt' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('notes.txt');
      const saved = await file.path();
      expect(saved).toBeTruthy();
      const fs = await import('node:fs');
      expect(fs.readFileSync(saved, 'utf8')).toBe('all good\n');

      await page.getByText(/^Headers \(\d+\)$/).click();
      await page.getByText('in-reply-to').waitFor();
      await u.checkPage('inbound message');
      await u.screenshot('inbound-message');
      // The message's <script> was refused by the sandbox (Chromium says so on the console, once per render); nothing
      // else went wrong.
      const errors = b.unexpectedErrors();
      const blockedScripts = errors.filter((e) => /Blocked script execution in 'about:srcdoc'.*sandboxed/.test(e));
      expect(blockedScripts.length).toBeGreaterThan(0);
      expect(errors.filter((e) => !blockedScripts.includes(e) && !e.includes(IMAGE_HOST))).toEqual([]);
    },
  );
});
