// Signup forms through the API: create, read, update and delete with their rules (exactly one email field, topics
// and a static list of the project, http/https redirects only), the embed snippet, and the hosted page: escaped
// labels, its language, a policy that lets any site frame it and nothing load from elsewhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectValidation } from '../../support/envelope.ts';

type Auth = { authorization: string };
const email = { key: 'email', label: 'Email', type: 'email' };

describe('forms API', () => {
  let t: TestApp;
  let auth: Auth;
  let topic: string;
  let list: string;
  let dynamic: string;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers = auth) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = (body: object) => call('POST', '/forms', { name: 'Newsletter', fields: [email], ...body });

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://herald.example' } });
    auth = (await t.createProject('Forms')).auth;
    topic = (await call('POST', '/topics', { name: 'News', defaultSubscription: 'OPT_IN' })).json().data.id;
    list = (await call('POST', '/segments', { name: 'Signups', type: 'STATIC' })).json().data.id;
    dynamic = (
      await call('POST', '/segments', { name: 'Pros', filter: { field: 'data.plan', operator: 'equals', value: 'p' } })
    ).json().data.id;
  });
  afterAll(() => t.close());

  it('creates, reads, lists, updates and deletes a form, with its counts and hosted URL', async () => {
    const res = await create({
      fields: [email, { key: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'], required: true }],
      topicIds: [topic],
      segmentId: list,
      captcha: 'pow',
      redirectUrl: 'https://example.com/thanks',
      locale: 'de',
      consentText: 'I agree to receive the newsletter.',
    });
    expect(res.statusCode, res.body).toBe(201);
    const form = res.json().data;
    expect(form).toMatchObject({
      name: 'Newsletter',
      fields: [
        { key: 'email', type: 'email', required: true },
        { key: 'plan', type: 'select', required: true, options: ['free', 'pro'] },
      ],
      topicIds: [topic],
      segmentId: list,
      doubleOptIn: false,
      captcha: 'pow',
      locale: 'de',
      url: `https://herald.example/f/${form.id}`,
      submissions: 0,
      confirmed: 0,
      spam: 0,
    });
    expect((await call('GET', `/forms/${form.id}`)).json().data).toEqual(form);
    expect((await call('GET', '/forms')).json().data).toMatchObject({ total: 1, items: [{ id: form.id }] });
    const patched = await call('PATCH', `/forms/${form.id}`, { name: 'Weekly', redirectUrl: null, segmentId: null });
    expect(patched.json().data).toMatchObject({ name: 'Weekly', redirectUrl: null, segmentId: null, locale: 'de' });
    const audit = await call('GET', `/audit-log?action=form.&limit=10`);
    expect(
      audit
        .json()
        .data.items.map((e: { action: string }) => e.action)
        .sort(),
    ).toEqual(['form.created', 'form.updated']);
    expect((await call('DELETE', `/forms/${form.id}`)).json().data).toEqual({ id: form.id, deleted: true });
    expectError(await call('GET', `/forms/${form.id}`), 404, 'NOT_FOUND');
    // Another project's key sees nothing.
    const other = (await t.createProject('Other')).auth;
    const mine = (await create({})).json().data.id;
    expectError(await call('GET', `/forms/${mine}`, undefined, other), 404, 'NOT_FOUND');
  });

  it('needs exactly one email field: none or two are a 422', async () => {
    expectValidation(await create({ fields: [{ key: 'name', label: 'Name', type: 'text' }] }), 'fields');
    expectValidation(await create({ fields: [email, { key: 'work', label: 'Work', type: 'email' }] }), 'fields');
    expectValidation(await create({ fields: [email, { key: 'Email', label: 'Again', type: 'text' }] }), 'fields.1.key');
    expectValidation(
      await create({ fields: [email, { key: 'plan', label: 'Plan', type: 'select' }] }),
      'fields.1.options',
    );
    expectValidation(
      await create({ fields: [email, { key: 'hp_website', label: 'x', type: 'text' }] }),
      'fields.1.key',
    );
  });

  it('takes only http and https redirects: javascript:, ftp: and relative URLs are a 422', async () => {
    for (const url of ['javascript:alert(1)', 'ftp://example.com/x', 'data:text/html,hi', '/thanks', 'https://'])
      expectValidation(await create({ redirectUrl: url }), 'redirectUrl');
    expect((await create({ redirectUrl: 'http://example.com/ok' })).statusCode).toBe(201);
  });

  it('names only topics and lists of the project: an unknown topic, an unknown or dynamic list is a 422', async () => {
    expectValidation(await create({ topicIds: [crypto.randomUUID()] }), 'topicIds.0');
    expectValidation(await create({ segmentId: crypto.randomUUID() }), 'segmentId');
    expectValidation(await create({ segmentId: dynamic }), 'segmentId');
    expectValidation(await create({ segmentId: '' }), 'segmentId');
    // Double opt-in needs the project's confirmation email.
    expectError(await create({ doubleOptIn: true }), 409, 'CONFLICT');
  });

  it('embeds as a plain form posting to the hosted page, with the widget script for proof of work', async () => {
    const plain = (await create({ fields: [email, { key: 'name', label: 'Name', type: 'text' }] })).json().data;
    const snippet = (await call('GET', `/forms/${plain.id}/embed`)).json().data;
    expect(snippet.script).toBeNull();
    expect(snippet.html).toContain(
      `<form class="herald-form" method="post" action="https://herald.example/f/${plain.id}"`,
    );
    expect(snippet.html).toContain('name="hp_website"');
    expect(snippet.html).not.toContain('<script');
    const pow = (await create({ captcha: 'pow' })).json().data;
    const withPow = (await call('GET', `/forms/${pow.id}/embed`)).json().data;
    expect(withPow.html).toContain(`<altcha-widget challenge="https://herald.example/f/${pow.id}/challenge"`);
    expect(withPow.script).toBe('<script type="module" src="https://herald.example/f-assets/widget.js"></script>');
  });

  it('serves a page with escaped labels in its language, framable anywhere, loading nothing from afar', async () => {
    const label = '<img src=x onerror=alert(1)>Name';
    const form = (
      await create({
        name: '<b>News</b>',
        fields: [email, { key: 'name', label, type: 'text' }],
        consentText: '<script>alert(1)</script> I agree',
        redirectUrl: 'https://example.com/thanks',
        captcha: 'pow',
      })
    ).json().data;
    const page = await t.app.inject({
      method: 'GET',
      url: `/f/${form.id}`,
      headers: { 'accept-language': 'fr-CH, de;q=0.5' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).not.toContain('<script>alert');
    expect(page.body).not.toContain('<b>News');
    expect(page.body).toContain('&#60;img src=x onerror=alert(1)&#62;Name');
    expect(page.body).toContain('<html lang="fr"');
    expect(page.body).toContain('S’abonner');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain("form-action 'self' https://example.com");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(page.headers['x-frame-options']).toBeUndefined();
    // Every URL the page loads is its own.
    for (const [, url] of page.body.matchAll(/(?:src|href)="([^"]+)"/g)) expect(url).toMatch(/^(\/|data:)/);
    // Only the form page may be framed.
    const api = await call('GET', '/forms');
    expect(api.headers['x-frame-options']).toBe('DENY');
    // A form with a locale speaks it whatever the browser says.
    const german = (await create({ locale: 'de-AT' })).json().data;
    const de = await t.app.inject({ method: 'GET', url: `/f/${german.id}`, headers: { 'accept-language': 'fr' } });
    expect(de.body).toContain('<html lang="de"');
    for (const file of ['widget.js', 'altcha.js', 'altcha-sha.js', 'altcha.css', 'form.css']) {
      const asset = await t.app.inject({ method: 'GET', url: `/f-assets/${file}` });
      expect(asset.statusCode, file).toBe(200);
    }
  });

  it('answers an unknown form with a page for browsers and the error envelope for anything else', async () => {
    const id = crypto.randomUUID();
    expectError(await t.app.inject({ method: 'GET', url: `/f/${id}` }), 404, 'NOT_FOUND');
    expectError(
      await t.app.inject({ method: 'POST', url: `/f/${id}`, payload: { email: 'a@b.test' } }),
      404,
      'NOT_FOUND',
    );
    const page = await t.app.inject({ method: 'GET', url: `/f/${id}`, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Form not found');
    expectError(await t.app.inject({ method: 'GET', url: `/f/${id}/challenge` }), 404, 'NOT_FOUND');
  });

  it('lets viewers read forms but not write them', async () => {
    const viewer = await call('POST', '/api-keys', { type: 'secret', scope: 'read' });
    const readKey = { authorization: `Bearer ${viewer.json().data.key}` };
    expect((await call('GET', '/forms', undefined, readKey)).statusCode).toBe(200);
    expect((await call('POST', '/forms', { name: 'x', fields: [email] }, readKey)).statusCode).toBe(403);
  });
});
