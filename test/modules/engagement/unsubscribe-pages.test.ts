/**
 * The pages of an unsubscribe link: they name the sender (the project), and after unsubscribing offer a
 * Resubscribe button that works as a plain form POST.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnsubscribeToken } from '../../../src/mail/links.ts';
import { APP_SECRET, createTestApp, type TestApp } from '../../support/app.ts';

describe('unsubscribe pages', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;
  let contactId: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Acme <Weekly>');
    contactId = (
      await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: project.auth,
        payload: { email: 'ann@example.com', subscribed: true },
      })
    ).json().data.id;
    token = createUnsubscribeToken(APP_SECRET, { projectId: project.id, contactId });
  });
  afterAll(() => t.close());

  const subscribed = async () =>
    (await t.app.inject({ method: 'GET', url: `/contacts/${contactId}`, headers: project.auth })).json().data
      .subscribed as boolean;
  const form = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };

  it('names the sender on the confirmation page, escaped, with a favicon', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/unsubscribe/${token}`, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Emails from <strong>Acme &#60;Weekly&#62;</strong>');
    expect(res.body).toMatch(/<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,/);
    expect(res.headers['content-security-policy']).toContain('img-src data:');
  });

  it('unsubscribes, offers Resubscribe as a form, and resubscribes on its POST', async () => {
    const done = await t.app.inject({
      method: 'POST',
      url: `/unsubscribe/${token}`,
      headers: form,
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode).toBe(200);
    expect(await subscribed()).toBe(false);
    expect(done.body).toContain(
      `<form method="post" action="${token}/resubscribe"><button type="submit" ` +
        `class="secondary">Resubscribe</button></form>`,
    );

    const again = await t.app.inject({
      method: 'POST',
      url: `/unsubscribe/${token}/resubscribe`,
      headers: form,
      payload: '',
    });
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('You are subscribed again');
    expect(await subscribed()).toBe(true);
    // And the way back out posts to the unsubscribe URL again.
    expect(again.body).toContain(`action="../${token}"`);
  });

  it('refuses a Resubscribe posted from another site; the one-click unsubscribe is taken from anywhere', async () => {
    // A mail client's one-click POST (RFC 8058) may come from its own site: unsubscribing never asks where from.
    const out = await t.app.inject({
      method: 'POST',
      url: `/unsubscribe/${token}`,
      headers: { ...form, origin: 'https://webmail.example', 'sec-fetch-site': 'cross-site' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(out.statusCode).toBe(200);
    expect(await subscribed()).toBe(false);
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/unsubscribe/${token}/resubscribe`,
        headers: { ...form, accept: 'application/json', ...headers },
        payload: '',
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
    expect(await subscribed()).toBe(false);
    // The page's own button, as Chromium sends it.
    const back = await t.app.inject({
      method: 'POST',
      url: `/unsubscribe/${token}/resubscribe`,
      headers: { ...form, origin: 'http://localhost:80', host: 'localhost:80', 'sec-fetch-site': 'same-origin' },
      payload: '',
    });
    expect(back.statusCode).toBe(200);
    expect(await subscribed()).toBe(true);
  });

  it('answers a forged token with 404, never a change', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/unsubscribe/${token.slice(0, -2)}xx/resubscribe`,
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    const page = await t.app.inject({
      method: 'POST',
      url: '/unsubscribe/nonsense/resubscribe',
      headers: form,
      payload: '',
    });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toContain('text/html');
  });
});
