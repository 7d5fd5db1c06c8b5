/**
 * The pages people reach from links in their mail, in Chromium, reached from real messages (through the SMTP
 * sink): the preference centre saves topic choices, unsubscribes from everything and resubscribes; the unsubscribe
 * page unsubscribes and resubscribes; a double opt-in confirmation link shows a page whose GET changes nothing
 * and whose Confirm button confirms. Every one of them is a plain form POST, as a browser really sends it (its
 * Origin and Sec-Fetch-Site headers are the browser's own, under the pages' Referrer-Policy).
 */
import { simpleParser } from 'mailparser';
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { startBrowser, type TestBrowser } from './browser.ts';

type Auth = { authorization: string };

describe('the hosted pages of links in mail, in Chromium', () => {
  let m: MailFixture;
  let b: TestBrowser;
  let base: string;
  let auth: Auth;
  let publicKey: Auth;
  /** The form POSTs Chromium made, with the headers it chose for them. */
  const requests: Promise<{ url: string; origin: string | undefined; site: string | undefined }>[] = [];
  const postsTo = async (url: string) => (await Promise.all(requests)).filter((p) => p.url === url);

  const api = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Auth = auth) => {
    const res = await m.t.app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json().data;
  };
  /** The link of `kind` (manage, unsubscribe, confirm) in the one message to `to`, on the served origin. */
  const linkIn = async (to: string, kind: string) => {
    const message = await m.sink.waitForRecipient(to);
    const html = String((await simpleParser(message.raw)).html);
    const url = new RegExp(`href="(https://mail\\.herald\\.test/${kind}/[^"]+)"`).exec(html)?.[1];
    expect(url, `a ${kind} link in ${html}`).toBeDefined();
    return `${base}${new URL(url!).pathname}`;
  };
  const contactOf = async (email: string) =>
    (await api('GET', `/contacts?email=${email}`)).items[0] as { id: string; subscribed: boolean };
  const choices = async (id: string) =>
    Object.fromEntries(
      ((await api('GET', `/contacts/${id}/topics`)) as { name: string; subscribed: boolean }[]).map((t) => [
        t.name,
        t.subscribed,
      ]),
    );

  beforeAll(async () => {
    m = await startMailFixture();
    const sender = await m.verifiedDomain('pages.test');
    auth = sender.auth;
    publicKey = { authorization: `Bearer ${sender.project.publicKey}` };
    await m.t.app.inject({
      method: 'PATCH',
      url: `/admin/projects/${sender.project.id}`,
      headers: m.t.admin,
      payload: { name: 'Acme News' },
    });
    base = await m.t.app.listen({ port: 0, host: '127.0.0.1' });
    b = await startBrowser({ origin: base });
    b.page.setDefaultTimeout(20_000);
    b.page.on('request', (request: Request) => {
      if (request.method() !== 'POST') return;
      // allHeaders: as sent on the wire, with the Sec-Fetch-* headers the network stack adds.
      requests.push(
        request
          .allHeaders()
          .then((headers) => ({ url: request.url(), origin: headers.origin, site: headers['sec-fetch-site'] })),
      );
    });
  });
  afterAll(async () => {
    await b?.close();
    await m?.close();
  });

  it(
    'saves topic choices on the preference page of a real message, unsubscribes from ' + 'everything and resubscribes',
    async () => {
      await api('POST', '/topics', { name: 'Newsletter', defaultSubscription: 'OPT_OUT' });
      await api('POST', '/topics', { name: 'Offers', defaultSubscription: 'OPT_IN' });
      await api('POST', '/v1/send', {
        to: 'reader@dest.test',
        from: 'news@pages.test',
        subject: 'Hi',
        body: '<p><a href="{{manageUrl}}">Preferences</a></p>',
        subscribed: true,
      });
      const url = await linkIn('reader@dest.test', 'manage');
      const { id } = await contactOf('reader@dest.test');
      const { page } = b;

      await page.goto(url);
      await page.getByRole('heading', { name: 'Email preferences' }).waitFor();
      expect(await page.getByRole('checkbox', { name: 'Newsletter' }).isChecked()).toBe(true);
      expect(await page.getByRole('checkbox', { name: 'Offers' }).isChecked()).toBe(false);
      await page.getByRole('checkbox', { name: 'Newsletter' }).uncheck();
      await page.getByRole('button', { name: 'Save preferences' }).click();
      await page.getByText('Your preferences are saved.').waitFor();
      expect(await choices(id)).toEqual({ Newsletter: false, Offers: false });
      expect(await page.getByRole('checkbox', { name: 'Newsletter' }).isChecked()).toBe(false);

      await page.getByRole('button', { name: 'Unsubscribe from everything' }).click();
      await page.getByText('You are unsubscribed.').waitFor();
      expect((await contactOf('reader@dest.test')).subscribed).toBe(false);
      await page.getByRole('button', { name: 'Resubscribe' }).click();
      await page.getByText('You are subscribed again.').waitFor();
      expect((await contactOf('reader@dest.test')).subscribed).toBe(true);
      // The choices made before unsubscribing are kept.
      expect(await choices(id)).toEqual({ Newsletter: false, Offers: false });

      // Chromium sent its real origin with each form (not "null"), and said the post came from the page's own origin.
      const managed = await postsTo(url);
      expect(managed).toHaveLength(3);
      for (const post of managed) expect(post).toMatchObject({ origin: base, site: 'same-origin' });
      expect(b.unexpectedErrors()).toEqual([]);
    },
  );

  it('unsubscribes and resubscribes on the unsubscribe page of a real message', async () => {
    await api('POST', '/v1/send', {
      to: 'leaver@dest.test',
      from: 'news@pages.test',
      subject: 'Hi',
      body: '<p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>',
      subscribed: true,
    });
    const url = await linkIn('leaver@dest.test', 'unsubscribe');
    const { page } = b;
    await page.goto(url);
    await page.getByRole('heading', { name: 'Unsubscribe' }).waitFor();
    expect((await contactOf('leaver@dest.test')).subscribed).toBe(true);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    expect((await contactOf('leaver@dest.test')).subscribed).toBe(false);
    await page.getByRole('button', { name: 'Resubscribe' }).click();
    await page.getByRole('heading', { name: 'You are subscribed again' }).waitFor();
    expect((await contactOf('leaver@dest.test')).subscribed).toBe(true);
    expect(b.unexpectedErrors()).toEqual([]);
  });

  it('confirms a signup from the link of its real confirmation email; opening the link changes nothing', async () => {
    const template = await api('POST', '/templates', {
      name: 'Confirm',
      subject: 'Confirm your address',
      body: '<p><a href="{{confirmUrl}}">Confirm</a></p>',
      type: 'MARKETING',
      from: 'hello@pages.test',
    });
    await api('PATCH', '/settings', { doubleOptIn: { templateId: template.id } });
    // A public key is told nothing about the address.
    expect(await api('POST', '/v1/subscribe', { email: 'joiner@dest.test' }, publicKey)).toBeNull();
    const url = await linkIn('joiner@dest.test', 'confirm');
    const { page } = b;

    await page.goto(url);
    await page.getByRole('heading', { name: 'Confirm your subscription' }).waitFor();
    expect(await page.locator('.from').textContent()).toBe('Emails from Acme News');
    const { id } = await contactOf('joiner@dest.test');
    expect((await contactOf('joiner@dest.test')).subscribed).toBe(false);
    expect(await api('GET', `/contacts/${id}/confirmation`)).toMatchObject({ status: 'PENDING', confirmedAt: null });

    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'You are subscribed' }).waitFor();
    expect((await contactOf('joiner@dest.test')).subscribed).toBe(true);
    expect(await api('GET', `/contacts/${id}/confirmation`)).toMatchObject({
      status: 'CONFIRMED',
      confirmedAt: expect.any(String),
    });
    expect(await postsTo(url)).toEqual([{ url, origin: base, site: 'same-origin' }]);
    expect(b.unexpectedErrors()).toEqual([]);
  });
});
