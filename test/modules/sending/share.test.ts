/**
 * An email in a browser: `{{viewInBrowserUrl}}` in a message opens its page (no tracking from it, remote images only
 * when asked, a locked-down policy), share links work until they expire (410 after, 404 when forged), and a share is
 * refused for another project's email or a bad duration.
 */
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../../src/mail/links.ts';
import { APP_SECRET } from '../../support/app.ts';
import { expectError } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

describe('an email in a browser', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('share.test');
  });
  afterAll(() => m?.close());

  async function sent(to: string, body: string): Promise<{ id: string; html: string }> {
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: { to, from: 'news@share.test', subject: 'Our news', body, tracking: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.emails[0].email as string;
    await m.waitForStatus(sender.auth, id, ['SENT']);
    const received = await m.sink.waitForRecipient(to);
    return { id, html: (await simpleParser(received.raw)).html as string };
  }
  const share = (id: string, payload?: unknown, auth = sender.auth) =>
    m.t.app.inject({ method: 'POST', url: `/emails/${id}/share`, headers: auth, ...(payload ? { payload } : {}) });
  const browser = { accept: 'text/html,application/xhtml+xml' };
  const page = (url: string) =>
    m.t.app.inject({ method: 'GET', url: url.replace('https://mail.herald.test', ''), headers: browser });

  it('opens the message from its {{viewInBrowserUrl}}, counting nothing, remote images only when asked', async () => {
    const body =
      '<p>Hello <a href="{{ viewInBrowserUrl }}">view it in your browser</a></p>' +
      '<img src="https://images.example.com/banner.png" alt="Banner">';
    const { id, html } = await sent('reader@dest.test', body);
    // The link in the message is not click-tracked (it is no click on the content); it leads to /v/<token>.
    expect(html).not.toContain('/t/c/');
    const viewUrl = /href="(https:\/\/mail\.herald\.test\/v\/[^"]+)"/.exec(html)![1]!;
    expect(viewUrl).toMatch(/^https:\/\/mail\.herald\.test\/v\/[\w-]+\.[\w-]+$/);
    const before = (await m.t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: sender.auth })).json().data;

    const res = await page(viewUrl);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<title>Our news</title>');
    expect(res.body).toContain('https://images.example.com/banner.png');
    // As the recipient reads it, before tracking: no pixel and no click links.
    expect(res.body).not.toContain('/t/o/');
    expect(res.body).not.toContain('/t/c/');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain('img-src data:;');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/(^|; )sandbox(;|$)/);
    expect(res.body).toContain('href="?images=1"');
    const withImages = await page(`${viewUrl}?images=1`);
    expect(withImages.statusCode).toBe(200);
    expect(String(withImages.headers['content-security-policy'])).toContain('img-src data: https: http:');
    expect(withImages.body).not.toContain('href="?images=1"');

    const after = (await m.t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: sender.auth })).json().data;
    expect({ opens: after.opens, clicks: after.clicks }).toEqual({ opens: before.opens, clicks: before.clicks });
  });

  it('shares an email until the link expires; a forged link is a 404', async () => {
    const { id } = await sent('shared@dest.test', '<p>A receipt</p>');
    const res = await share(id, { expiresIn: '2h' });
    expect(res.statusCode, res.body).toBe(200);
    const { url, expiresAt } = res.json().data as { url: string; expiresAt: string };
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(2 * 3_600_000 - 60_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(2 * 3_600_000);
    const open = await page(url);
    expect(open.statusCode).toBe(200);
    expect(open.body).toContain('A receipt');
    // Without a duration: a week.
    const week = (await share(id)).json().data as { expiresAt: string };
    expect(Math.round((Date.parse(week.expiresAt) - Date.now()) / 86_400_000)).toBe(7);

    // A link signed with Herald's key that expired a minute ago, and one whose signature is altered.
    const expired = signToken(APP_SECRET, 'view', { e: id, x: Math.floor(Date.now() / 1000) - 60 });
    const gone = await page(`/v/${expired}`);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('no longer available');
    const token = url.split('/v/')[1]!;
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await page(`/v/${forged}`)).statusCode).toBe(404);
    // A client that is no browser gets the error envelope.
    expectError(await m.t.app.inject({ method: 'GET', url: `/v/${forged}` }), 404, 'NOT_FOUND');
    expectError(await m.t.app.inject({ method: 'GET', url: `/v/${expired}` }), 410, 'GONE');
    // Another purpose's token (an open pixel's) is no view link either.
    expect((await page(`/v/${signToken(APP_SECRET, 'open', { e: id })}`)).statusCode).toBe(404);

    // The share is in the audit log.
    const audit = await m.t.app.inject({ method: 'GET', url: '/audit-log?action=email.shared', headers: sender.auth });
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.json().data.items.some((e: { resourceId: string }) => e.resourceId === id)).toBe(true);
  });

  it('refuses a bad duration, another project’s email and a missing one', async () => {
    const { id } = await sent('other@dest.test', '<p>Mine</p>');
    for (const expiresIn of ['0d', '7', '91d', '1w', 'soon', 7]) {
      expectError(await share(id, { expiresIn }), 422, 'VALIDATION_ERROR');
    }
    const other = await m.t.createProject();
    expectError(await share(id, {}, other.auth), 404, 'NOT_FOUND');
    expectError(await share('01900000-0000-7000-8000-000000000000'), 404, 'NOT_FOUND');
  });
});
