/**
 * The links inside mail: limited per client address, repeated opens and clicks only count (one event per
 * email), click links of any length redirect, and links with characters a header cannot carry redirect to
 * their percent-encoded form (never a 500, never a click counted without a redirect).
 */
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickToken, signToken } from '../../../src/mail/links.ts';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { APP_SECRET, createTestApp, type TestApp } from '../../support/app.ts';
import { expectError } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

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
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: { to, from: 'news@example.test', subject: 'Links', body, tracking: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { email, contact } = res.json().data.emails[0] as { email: string; contact: { id: string } };
    await m.waitForStatus(sender.auth, email, ['SENT']);
    const received = m.sink.messages.find((msg) => msg.to.includes(to))!;
    return { emailId: email, contactId: contact.id, html: (await simpleParser(received.raw)).html as string };
  }
  const pathOf = (html: string, kind: 'o' | 'c', nth = 0) =>
    [...html.matchAll(new RegExp(`https://mail\\.herald\\.test(/t/${kind}/[^"]+)"`, 'g'))][nth]![1]!;
  const eventCount = async (contactId: string, name: string) =>
    (
      await m.t.app.inject({ method: 'GET', url: `/events?contactId=${contactId}&name=${name}`, headers: sender.auth })
    ).json().data.total as number;

  it('counts every open and click but records one email.opened and one email.clicked per email', async () => {
    const { emailId, contactId, html } = await trackedEmail(
      'reader@dest.test',
      '<p><a href="https://example.test/a">a</a> <a href="https://example.test/b">b</a></p>',
    );
    for (let i = 0; i < 5; i++)
      expect((await m.t.app.inject({ method: 'GET', url: pathOf(html, 'o') })).headers['content-type']).toBe(
        'image/gif',
      );
    for (const nth of [0, 1, 0])
      expect((await m.t.app.inject({ method: 'GET', url: pathOf(html, 'c', nth) })).statusCode).toBe(302);
    const email = (await m.t.app.inject({ method: 'GET', url: `/emails/${emailId}`, headers: sender.auth })).json()
      .data;
    expect(email).toMatchObject({ opens: 5, clicks: 3 });
    expect(email.openedAt).not.toBeNull();
    expect(await eventCount(contactId, 'email.opened')).toBe(1);
    expect(await eventCount(contactId, 'email.clicked')).toBe(1);
  });

  it('leaves the consent links (unsubscribe, preference centre, view in browser) out of click tracking', async () => {
    const { emailId, contactId, html } = await trackedEmail(
      'consent@dest.test',
      '<p><a href="https://example.test/offer">offer</a> <a href="{{ manageUrl }}">preferences</a> ' +
        '<a href="{{ unsubscribeUrl }}">unsubscribe</a> <a href="{{ viewInBrowserUrl }}">view online</a></p>',
    );
    // One click link (the offer); the consent pages are linked directly, each page answering.
    expect([...html.matchAll(/\/t\/c\//g)]).toHaveLength(1);
    const consent = ['manage', 'unsubscribe', 'v'].map(
      (page) => new RegExp(`href="https://mail\\.herald\\.test(/${page}/[^"]+)"`).exec(html)![1]!,
    );
    for (const url of consent) {
      const res = await m.t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
    }
    const before = (await m.t.app.inject({ method: 'GET', url: `/emails/${emailId}`, headers: sender.auth })).json();
    expect(before.data.clicks).toBe(0);
    expect(await eventCount(contactId, 'email.clicked')).toBe(0);
    expect((await m.t.app.inject({ method: 'GET', url: pathOf(html, 'c') })).headers.location).toBe(
      'https://example.test/offer',
    );
    const after = (await m.t.app.inject({ method: 'GET', url: `/emails/${emailId}`, headers: sender.auth })).json();
    expect(after.data.clicks).toBe(1);
  });

  it('redirects links of any length mail clients keep (8 KB and more), never to anything else', async () => {
    const long = `https://example.test/landing?${Array.from({ length: 900 }, (_, i) => `p${i}=v${i}`).join('&')}`;
    expect(long.length).toBeGreaterThan(8192);
    const { html } = await trackedEmail(
      'long@dest.test',
      `<p><a href="mailto:x@example.test">m</a><a href="${long.replaceAll('&', '&amp;')}">long</a></p>`,
    );
    const click = pathOf(html, 'c');
    expect(click.length).toBeLessThan(300);
    const res = await m.t.app.inject({ method: 'GET', url: click });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(long);
    expect(res.headers['cache-control']).toContain('no-store');
    // A token for another link index of the same email, or a tampered one, redirects nowhere.
    expectError(await m.t.app.inject({ method: 'GET', url: `${click.slice(0, -4)}AAAA` }), 404, 'NOT_FOUND');
    const page = await m.t.app.inject({
      method: 'GET',
      url: `${click.slice(0, -4)}AAAA`,
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers.location).toBeUndefined();
  });
});

describe('click links to URLs a header cannot carry as written (outbox)', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;

  beforeAll(async () => {
    m = await startMailFixture({ env: { MAIL_TRANSPORT: 'outbox', SMTP_URL: '' } });
    sender = await m.verifiedDomain('example.test');
  });
  afterAll(() => m.close());

  /** Sends one tracked email and answers its id and the HTML of the message the outbox wrote. */
  async function sentEmail(body: string) {
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: { to: 'reader@dest.test', from: 'news@example.test', subject: 'Links', body, tracking: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const emailId = res.json().data.emails[0].email as string;
    await m.waitForStatus(sender.auth, emailId, ['SENT']);
    const raw = fs.readFileSync(path.join(m.t.ctx.config.dataDir, 'outbox', `${emailId}.eml`));
    return { emailId, html: (await simpleParser(raw)).html as string };
  }
  const clicksOf = async (emailId: string) =>
    (await m.t.app.inject({ method: 'GET', url: `/emails/${emailId}`, headers: sender.auth })).json().data
      .clicks as number;
  const browser = { accept: 'text/html,application/xhtml+xml' };

  it('redirects to the normalised, percent-encoded URL for browsers and other clients alike', async () => {
    const links: [string, string][] = [
      ['https://example.com/über?q=ü', 'https://example.com/%C3%BCber?q=%C3%BC'],
      ['https://example.com/日本?q=€#Ω', 'https://example.com/%E6%97%A5%E6%9C%AC?q=%E2%82%AC#%CE%A9'],
      ['https://example.com/a%0Ab', 'https://example.com/a%0Ab'],
      ['https://example.com/x&#10;y?z=1&#13;&#10;2', 'https://example.com/xy?z=12'],
      ['https://bücher.example/straße', 'https://xn--bcher-kva.example/stra%C3%9Fe'],
    ];
    const { emailId, html } = await sentEmail(links.map(([href], i) => `<a href="${href}">${i}</a>`).join(' '));
    const clicks = [...html.matchAll(/https:\/\/mail\.herald\.test(\/t\/c\/[^"]+)"/g)].map((match) => match[1]!);
    expect(clicks).toHaveLength(links.length);
    for (const [i, click] of clicks.entries()) {
      for (const headers of [browser, { accept: 'application/json' }]) {
        const res = await m.t.app.inject({ method: 'GET', url: click, headers });
        expect(res.statusCode, `${links[i]![0]}: ${res.body}`).toBe(302);
        expect(res.headers.location).toBe(links[i]![1]);
      }
    }
    expect(await clicksOf(emailId)).toBe(links.length * 2);
  });

  it('answers the invalid-link page or the envelope, and counts nothing, when no URL can be made', async () => {
    const { emailId } = await sentEmail(
      '<a href="mailto:x@example.test">mail</a> <a href="https://example.com/ok">ok</a>',
    );
    // Tokens the server itself signs: one for the mailto link (never rewritten), one past the last link, and
    // one of an earlier release that carried a URL which is not http(s).
    const tokens = [
      createClickToken(APP_SECRET, emailId, 0),
      createClickToken(APP_SECRET, emailId, 7),
      signToken(APP_SECRET, 'click', { e: emailId, u: 'javascript:alert(1)' }),
    ];
    for (const token of tokens) {
      const page = await m.t.app.inject({ method: 'GET', url: `/t/c/${token}`, headers: browser });
      expect(page.statusCode).toBe(404);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('This link is not valid');
      expect(page.headers.location).toBeUndefined();
      expectError(await m.t.app.inject({ method: 'GET', url: `/t/c/${token}` }), 404, 'NOT_FOUND');
    }
    // A token of an earlier release whose URL holds a raw newline redirects to the URL without it.
    const old = await m.t.app.inject({
      method: 'GET',
      url: `/t/c/${signToken(APP_SECRET, 'click', { e: emailId, u: 'https://example.com/a\nb€' })}`,
    });
    expect(old.statusCode, old.body).toBe(302);
    expect(old.headers.location).toBe('https://example.com/ab%E2%82%AC');
    expect(await clicksOf(emailId)).toBe(1);
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
      const res = await t.app.inject({
        method: i % 3 === 2 && i % 2 === 0 ? 'POST' : 'GET',
        url,
        remoteAddress: '203.0.113.7',
      });
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
    const spoofed = await t.app.inject({
      method: 'GET',
      url: '/t/o/x.y',
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-for': '198.51.100.77' },
    });
    if (Math.floor(Date.now() / 60_000) === minute && statuses.at(-1) === 429) expect(spoofed.statusCode).toBe(429);
    const other = await t.app.inject({ method: 'GET', url: '/t/o/x.y', remoteAddress: '203.0.113.8' });
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-type']).toBe('image/gif');
  });
});

describe('a burst of clicks on campaign mail cannot make sends fail', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  const recipients = 20;
  const linksPerEmail = 5;

  beforeAll(async () => {
    m = await startMailFixture({
      env: { MAIL_TRANSPORT: 'outbox', SMTP_URL: '', LINK_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    sender = await m.verifiedDomain('example.test');
  });
  afterAll(() => m.close());

  it(
    'answers /v1/send 200 while clicks that each re-render a heavy campaign email ' + 'saturate click resolution',
    async () => {
      const rows = Array.from({ length: recipients }, (_, i) => ({
        email: `c${i}@dest.test`,
        defaultSubscribed: true,
        patch: { firstName: `C${i}` },
      }));
      await upsertContacts({ db: m.t.ctx.db, projectId: sender.project.id, rows, consent: { type: 'api' } });
      // A campaign body that takes a render thread a while (campaign mail is re-rendered to resolve a click).
      const heavy =
        '{% for i in (1..1500) %}{% assign x = i | times: 3 | modulo: 7 %}{% if x > 3 ' +
        '%}{{ firstName | upcase }}{% endif %}{% endfor %}';
      const links = Array.from(
        { length: linksPerEmail },
        (_, i) => `<a href="https://example.test/{{ firstName }}/${i}">link ${i}</a>`,
      ).join(' ');
      const created = await m.t.app.inject({
        method: 'POST',
        url: '/campaigns',
        headers: sender.auth,
        payload: {
          name: 'heavy',
          audienceType: 'ALL',
          subject: 'Hi',
          from: 'news@example.test',
          body: `<p>${heavy}</p>${links}`,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const campaignId = created.json().data.id as string;
      expect(
        (await m.t.app.inject({ method: 'POST', url: `/campaigns/${campaignId}/send`, headers: sender.auth }))
          .statusCode,
      ).toBe(202);
      await until(
        async () =>
          (await m.t.app.inject({ method: 'GET', url: `/campaigns/${campaignId}`, headers: sender.auth })).json().data
            .status === 'SENT',
        'the campaign sent',
        60_000,
      );

      const failed = (
        await m.t.app.inject({
          method: 'GET',
          url: `/emails?sourceId=${campaignId}&status=FAILED`,
          headers: sender.auth,
        })
      ).json().data.items as { lastError: string }[];
      expect(failed.map((e) => e.lastError)).toEqual([]);
      const outbox = path.join(m.t.ctx.config.dataDir, 'outbox');
      await until(
        async () => fs.readdirSync(outbox).length === recipients,
        () => `every campaign email written; the outbox holds ${fs.readdirSync(outbox).join(', ')}`,
        60_000,
      );
      const bodies = await Promise.all(
        fs
          .readdirSync(outbox)
          .map(async (file) => (await simpleParser(fs.readFileSync(path.join(outbox, file)))).html as string),
      );
      const perEmail = bodies.map((html) =>
        [...html.matchAll(/https:\/\/mail\.herald\.test(\/t\/c\/[^"]+)"/g)].map((match) => match[1]!),
      );
      expect(perEmail.map((paths) => paths.length)).toEqual(Array(recipients).fill(linksPerEmail));
      // Every link of every email, in turn: the first round alone asks for one render per link.
      const urls = Array.from({ length: linksPerEmail }, (_, l) => perEmail.map((paths) => paths[l]!)).flat();

      // Every link is clicked at once (every tenth click is a browser's); as soon as one is refused, click
      // resolution is saturated, and five sends are made while the other clicks are still being resolved.
      const refused: { browser: boolean; res: Awaited<ReturnType<typeof m.t.app.inject>> }[] = [];
      let saturated = () => {};
      const saturation = new Promise<void>((resolve) => (saturated = resolve));
      const clicks = Promise.all(
        urls.map(async (url, n) => {
          const browser = n % 10 === 0;
          const res = await m.t.app.inject({ method: 'GET', url, headers: browser ? { accept: 'text/html' } : {} });
          if (res.statusCode !== 302) {
            refused.push({ browser, res });
            saturated();
          }
        }),
      );
      await Promise.race([saturation, clicks]);
      const sends = await Promise.all(
        [0, 1, 2, 3, 4].map((i) =>
          m.t.app.inject({
            method: 'POST',
            url: '/v1/send',
            headers: sender.auth,
            payload: {
              to: `someone${i}@dest.test`,
              from: 'app@example.test',
              subject: 'Code',
              body: '<p>Your code is {{ code }}</p>',
              data: { code: String(i) },
            },
          }),
        ),
      );
      await clicks;
      const sendStatuses = sends.map((res) => res.statusCode);

      expect(sendStatuses).toEqual([200, 200, 200, 200, 200]);
      // A refused click is a 503 with Retry-After: the envelope, or a page asking a browser to retry.
      expect(refused.length).toBeGreaterThan(0);
      for (const { browser, res } of refused) {
        expect(res.headers['retry-after']).toBe('1');
        if (!browser) expectError(res, 503, 'SERVICE_UNAVAILABLE');
        else expect([res.statusCode, res.headers['content-type']]).toEqual([503, 'text/html; charset=utf-8']);
      }
      // Once the burst is over, every email's links redirect.
      for (const [i, paths] of perEmail.entries()) {
        const res = await m.t.app.inject({ method: 'GET', url: paths[i % linksPerEmail]! });
        expect(res.statusCode, res.body).toBe(302);
        expect(res.headers.location).toMatch(new RegExp(`^https://example\\.test/C\\d+/${i % linksPerEmail}$`));
      }
    },
    180_000,
  );
});
