// The preference centre behind {{manageUrl}}: reached from a real message, GET changes nothing, the POST form
// saves topics, unsubscribes and resubscribes; forged tokens and cross-site posts are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { createUnsubscribeToken } from '../../../src/mail/links.ts';
import { APP_SECRET } from '../../support/app.ts';
import { expectError } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

type Auth = { authorization: string };
const form = (fields: [string, string][]) => new URLSearchParams(fields).toString();
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };

describe('preference centre', () => {
  let m: MailFixture;
  let auth: Auth;
  let projectId: string;
  let news: string;
  let offers: string;
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const contactOf = async (email: string) =>
    (await call('GET', `/contacts?email=${email}`)).json().data.items[0] as { id: string; subscribed: boolean };
  const choices = async (id: string) =>
    Object.fromEntries(
      ((await call('GET', `/contacts/${id}/topics`)).json().data as { name: string; subscribed: boolean }[]).map(
        (t) => [t.name, t.subscribed],
      ),
    );

  beforeAll(async () => {
    m = await startMailFixture();
    const sender = await m.verifiedDomain('prefs.test');
    auth = sender.auth;
    projectId = sender.project.id;
    await m.t.app.inject({
      method: 'PATCH',
      url: `/admin/projects/${projectId}`,
      headers: m.t.admin,
      payload: { name: 'Acme <News>' },
    });
    news = (
      await call('POST', '/topics', { name: 'Newsletter', description: 'Once a month', defaultSubscription: 'OPT_OUT' })
    ).json().data.id;
    offers = (await call('POST', '/topics', { name: 'Offers', defaultSubscription: 'OPT_IN' })).json().data.id;
  });
  afterAll(() => m.close());

  it(
    'links a message to its preference page, which shows the project and its topics ' + 'and changes nothing on GET',
    async () => {
      const sent = await call('POST', '/v1/send', {
        to: 'reader@dest.test',
        from: 'news@prefs.test',
        subject: 'Hi',
        body: '<p><a href="{{manageUrl}}">Preferences</a></p>',
        subscribed: true,
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const [message] = await m.sink.waitForMessages(1);
      const parsed = await simpleParser(message!.raw);
      const url = /href="(https:\/\/mail\.herald\.test\/manage\/[^"]+)"/.exec(String(parsed.html))?.[1];
      expect(url).toBeDefined();
      const path = new URL(url!).pathname;
      const page = await m.t.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('Acme &#60;News&#62;');
      expect(page.body).toContain('reader@dest.test');
      expect(page.body).toMatch(new RegExp(`value="${news}" checked`));
      expect(page.body).toMatch(new RegExp(`value="${offers}">`));
      expect(page.body).toContain('Unsubscribe from everything');
      expect(page.body).not.toContain('<script');
      // Nothing changed by reading it.
      const contact = await contactOf('reader@dest.test');
      expect(contact.subscribed).toBe(true);
      expect(await choices(contact.id)).toEqual({ Newsletter: true, Offers: false });
    },
  );

  it('names the sender domain instead of a project still called Default', async () => {
    const rename = (name: string) =>
      m.t.app.inject({ method: 'PATCH', url: `/admin/projects/${projectId}`, headers: m.t.admin, payload: { name } });
    expect((await rename('Default')).statusCode).toBe(200);
    try {
      const contact = (await call('POST', '/contacts', { email: 'named@dest.test' })).json().data as { id: string };
      const path = `/manage/${createUnsubscribeToken(APP_SECRET, { projectId, contactId: contact.id })}`;
      const page = await m.t.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('prefs.test');
      expect(page.body).not.toContain('Default');
    } finally {
      await rename('Acme <News>');
    }
  });

  it('saves topic choices, unsubscribes from everything and resubscribes with plain form posts', async () => {
    const contact = (await call('POST', '/contacts', { email: 'forms@dest.test' })).json().data as { id: string };
    const path = `/manage/${createUnsubscribeToken(APP_SECRET, { projectId, contactId: contact.id })}`;
    const post = (fields: [string, string][], headers: Record<string, string> = {}) =>
      m.t.app.inject({ method: 'POST', url: path, headers: { ...formHeaders, ...headers }, payload: form(fields) });

    const saved = await post(
      [
        ['action', 'save'],
        ['topic', offers],
      ],
      { origin: 'http://localhost:80', host: 'localhost:80' },
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).toContain('Your preferences are saved.');
    expect(await choices(contact.id)).toEqual({ Newsletter: false, Offers: true });

    const out = await post([['action', 'unsubscribe']]);
    expect(out.body).toContain('Resubscribe');
    expect((await contactOf('forms@dest.test')).subscribed).toBe(false);
    const unsubscribed = (await call('GET', `/events?contactId=${contact.id}&name=contact.unsubscribed`)).json().data
      .items;
    expect(unsubscribed).toHaveLength(1);

    const back = await post([['action', 'resubscribe']]);
    expect(back.body).toContain('Unsubscribe from everything');
    expect((await contactOf('forms@dest.test')).subscribed).toBe(true);
    expect(
      (await call('GET', `/events?contactId=${contact.id}&name=contact.subscribed`)).json().data.items,
    ).toHaveLength(1);
  });

  it('refuses a forged token, a cross-site post and a form without an action', async () => {
    const contact = (await call('POST', '/contacts', { email: 'csrf@dest.test' })).json().data as { id: string };
    const token = createUnsubscribeToken(APP_SECRET, { projectId, contactId: contact.id });
    const forged = `${token.slice(0, -3)}${token.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const bad = await m.t.app.inject({ method: 'GET', url: `/manage/${forged}`, headers: { accept: 'text/html' } });
    expect(bad.statusCode).toBe(404);
    expect(bad.body).toContain('not valid');
    expectError(await m.t.app.inject({ method: 'GET', url: `/manage/${forged}` }), 404, 'NOT_FOUND');
    const other = createUnsubscribeToken('another-secret-0123456789abcdefghijklmnop', {
      projectId,
      contactId: contact.id,
    });
    expectError(
      await m.t.app.inject({
        method: 'POST',
        url: `/manage/${other}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form([['action', 'unsubscribe']]),
      }),
      404,
      'NOT_FOUND',
    );

    const evil = await m.t.app.inject({
      method: 'POST',
      url: `/manage/${token}`,
      headers: { ...formHeaders, origin: 'https://evil.example' },
      payload: form([['action', 'unsubscribe']]),
    });
    expectError(evil, 403, 'FORBIDDEN');
    expectError(
      await m.t.app.inject({
        method: 'POST',
        url: `/manage/${token}`,
        headers: formHeaders,
        payload: form([['topic', news]]),
      }),
      400,
      'BAD_REQUEST',
    );
    expect((await contactOf('csrf@dest.test')).subscribed).toBe(true);
  });

  it(
    'takes the page\'s own form by Sec-Fetch-Site even with "Origin: null", and ' +
      'refuses other sites and a bare null',
    async () => {
      const contact = (await call('POST', '/contacts', { email: 'browser@dest.test' })).json().data as { id: string };
      const path = `/manage/${createUnsubscribeToken(APP_SECRET, { projectId, contactId: contact.id })}`;
      const post = (fields: [string, string][], headers: Record<string, string>) =>
        m.t.app.inject({ method: 'POST', url: path, headers: { ...formHeaders, ...headers }, payload: form(fields) });
      // The page asks browsers to send its real origin with its forms (and no Referer to anywhere else).
      expect(
        (await m.t.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } })).headers[
          'referrer-policy'
        ],
      ).toBe('same-origin');

      // What Chromium sends from a page under "Referrer-Policy: no-referrer": the form is the page's own.
      const saved = await post(
        [
          ['action', 'save'],
          ['topic', offers],
        ],
        { origin: 'null', 'sec-fetch-site': 'same-origin' },
      );
      expect(saved.statusCode, saved.body).toBe(200);
      expect(await choices(contact.id)).toEqual({ Newsletter: false, Offers: true });

      // Another site (or a sibling subdomain) is refused whatever Origin says; so is "null" from a browser without
      // Sec-Fetch-Site (a sandboxed frame), and a foreign Origin.
      const elsewhere: Record<string, string>[] = [
        { 'sec-fetch-site': 'cross-site', origin: 'http://localhost:80', host: 'localhost:80' },
        { 'sec-fetch-site': 'same-site', origin: 'https://shop.herald.test' },
        { origin: 'null' },
        { origin: 'https://evil.example' },
      ];
      for (const headers of elsewhere) {
        expectError(await post([['action', 'unsubscribe']], headers), 403, 'FORBIDDEN');
      }
      expect((await contactOf('browser@dest.test')).subscribed).toBe(true);
      expect(await choices(contact.id)).toEqual({ Newsletter: false, Offers: true });
    },
  );
});
