/**
 * Issue 11, items 4 and 5: the links inside mail are limited per client address, repeated opens and clicks
 * only count (one event per email), and click links of any length redirect.
 */
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../support/mail.ts';

describe('links inside mail, end to end', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('example.test');
  });
  afterAll(() => m.close());

  /** Sends one tracked email and answers its id, contact and received HTML. */
  async function trackedEmail(to: string, body: string) {
    const res = await m.t.app.inject({ method: 'POST', url: '/v1/send', headers: sender.auth, payload: { to, from: 'news@example.test', subject: 'Links', body, tracking: true } });
    expect(res.statusCode, res.body).toBe(200);
    const { email, contact } = res.json().data.emails[0] as { email: string; contact: { id: string } };
    await m.waitForStatus(sender.auth, email, ['SENT']);
    const received = m.sink.messages.find((msg) => msg.to.includes(to))!;
    return { emailId: email, contactId: contact.id, html: (await simpleParser(received.raw)).html as string };
  }
  const pathOf = (html: string, kind: 'o' | 'c', nth = 0) => [...html.matchAll(new RegExp(`https://mail\\.herald\\.test(/t/${kind}/[^"]+)"`, 'g'))][nth]![1]!;
  const eventCount = async (contactId: string, name: string) =>
    (await m.t.app.inject({ method: 'GET', url: `/events?contactId=${contactId}&name=${name}`, headers: sender.auth })).json().data.total as number;

  it('counts every open and click but records one email.opened and one email.clicked per email', async () => {
    const { emailId, contactId, html } = await trackedEmail('reader@dest.test', '<p><a href="https://example.test/a">a</a> <a href="https://example.test/b">b</a></p>');
    for (let i = 0; i < 5; i++) expect((await m.t.app.inject({ method: 'GET', url: pathOf(html, 'o') })).headers['content-type']).toBe('image/gif');
    for (const nth of [0, 1, 0]) expect((await m.t.app.inject({ method: 'GET', url: pathOf(html, 'c', nth) })).statusCode).toBe(302);
    const email = (await m.t.app.inject({ method: 'GET', url: `/emails/${emailId}`, headers: sender.auth })).json().data;
    expect(email).toMatchObject({ opens: 5, clicks: 3 });
    expect(email.openedAt).not.toBeNull();
    expect(await eventCount(contactId, 'email.opened')).toBe(1);
    expect(await eventCount(contactId, 'email.clicked')).toBe(1);
  });

  it('redirects links of any length mail clients keep (8 KB and more), never to anything else', async () => {
    const long = `https://example.test/landing?${Array.from({ length: 900 }, (_, i) => `p${i}=v${i}`).join('&')}`;
    expect(long.length).toBeGreaterThan(8192);
    const { html } = await trackedEmail('long@dest.test', `<p><a href="mailto:x@example.test">m</a><a href="${long.replaceAll('&', '&amp;')}">long</a></p>`);
    const click = pathOf(html, 'c');
    expect(click.length).toBeLessThan(300);
    const res = await m.t.app.inject({ method: 'GET', url: click });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(long);
    expect(res.headers['cache-control']).toContain('no-store');
    // A token for another link index of the same email, or a tampered one, redirects nowhere.
    expectError(await m.t.app.inject({ method: 'GET', url: `${click.slice(0, -4)}AAAA` }), 404, 'NOT_FOUND');
    const page = await m.t.app.inject({ method: 'GET', url: `${click.slice(0, -4)}AAAA`, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers.location).toBeUndefined();
  });
});

describe('links inside mail are limited per client address', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { LINK_RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(() => t.close());

  it('answers 429 past the limit to one address, while another address goes on', async () => {
    const statuses: number[] = [];
    // 11 requests at a limit of 5: even across a window boundary, one window sees more than 5.
    for (let i = 0; i < 11; i++) {
      const url = ['/t/o/x.y', '/t/c/x.y', '/unsubscribe/x.y'][i % 3]!;
      const res = await t.app.inject({ method: i % 3 === 2 && i % 2 === 0 ? 'POST' : 'GET', url, remoteAddress: '203.0.113.7' });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expectError(res, 429, 'RATE_LIMIT_EXCEEDED');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toContain(429);
    // X-Forwarded-For from a client on the internet is not believed: it does not open a new bucket
    // (checked unless a new minute, so a new window, began just now).
    const minute = Math.floor(Date.now() / 60_000);
    const spoofed = await t.app.inject({ method: 'GET', url: '/t/o/x.y', remoteAddress: '203.0.113.7', headers: { 'x-forwarded-for': '198.51.100.77' } });
    if (Math.floor(Date.now() / 60_000) === minute && statuses.at(-1) === 429) expect(spoofed.statusCode).toBe(429);
    const other = await t.app.inject({ method: 'GET', url: '/t/o/x.y', remoteAddress: '203.0.113.8' });
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-type']).toBe('image/gif');
  });
});
