import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

describe('templates', () => {
  let m: MailFixture;
  let auth: { authorization: string };

  beforeAll(async () => {
    m = await startMailFixture({ worker: false });
    auth = (await m.verifiedDomain('example.test')).auth;
  });
  afterAll(() => m.close());

  const create = (payload: Record<string, unknown>) =>
    m.t.app.inject({ method: 'POST', url: '/templates', headers: auth, payload });
  const base = { name: 'Welcome', subject: 'Hi {{name}}', body: '<p>Hello {{name}}</p>', type: 'TRANSACTIONAL' };

  it('creates, reads, updates, lists with filters and deletes', async () => {
    const res = await create({ ...base, from: 'hello@example.test', fromName: 'Acme', replyTo: 'help@example.test' });
    expect(res.statusCode).toBe(201);
    const tpl = res.json().data;
    expect(tpl).toMatchObject({ ...base, from: 'hello@example.test', fromName: 'Acme', replyTo: 'help@example.test' });
    await create({ ...base, name: 'Newsletter', type: 'MARKETING' });
    const got = await m.t.app.inject({ method: 'GET', url: `/templates/${tpl.id}`, headers: auth });
    expect(got.json().data.id).toBe(tpl.id);
    const patched = await m.t.app.inject({
      method: 'PATCH',
      url: `/templates/${tpl.id}`,
      headers: auth,
      payload: { subject: 'Welcome {{name}}', fromName: null },
    });
    expect(patched.json().data).toMatchObject({ subject: 'Welcome {{name}}', fromName: null, name: 'Welcome' });
    const marketing = (await m.t.app.inject({ method: 'GET', url: '/templates?type=MARKETING', headers: auth })).json()
      .data;
    expect(marketing.items.map((t: { name: string }) => t.name)).toEqual(['Newsletter']);
    const search = (await m.t.app.inject({ method: 'GET', url: '/templates?search=welc', headers: auth })).json().data;
    expect(search.total).toBe(1);
    const page = (await m.t.app.inject({ method: 'GET', url: '/templates?limit=1', headers: auth })).json().data;
    expect(page).toMatchObject({ hasMore: true, total: 2 });
    expect((await m.t.app.inject({ method: 'DELETE', url: `/templates/${tpl.id}`, headers: auth })).statusCode).toBe(
      200,
    );
    expect((await m.t.app.inject({ method: 'GET', url: `/templates/${tpl.id}`, headers: auth })).statusCode).toBe(404);
  });

  it('refuses a sender on a domain the project has not verified (403 DOMAIN_NOT_VERIFIED)', async () => {
    const res = await create({ ...base, from: 'someone@gmail.com' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('DOMAIN_NOT_VERIFIED');
    // A subdomain of a verified domain is allowed.
    expect((await create({ ...base, from: 'news@mail.example.test' })).statusCode).toBe(201);
  });

  it('answers a template that does not parse with 422 and its line and column', async () => {
    const res = await create({ ...base, body: '<p>ok</p>\n<p>{% if x %}never closed</p>' });
    expect(res.statusCode).toBe(422);
    const error = res.json().error;
    expect(error.errors[0]).toMatchObject({ field: 'body', code: 'template_syntax' });
    expect(error.message).toMatch(/line 2/);
    const subject = await create({ ...base, subject: 'Hi {{ name ' });
    expect(subject.statusCode).toBe(422);
    expect(subject.json().error.errors[0].field).toBe('subject');
    // Both broken: both named, not only the first.
    const both = await create({ ...base, subject: 'Hi {{ name ', body: '<p>{% if x %}</p>' });
    expect(both.statusCode).toBe(422);
    expect(both.json().error.errors.map((e: { field: string }) => e.field)).toEqual(['subject', 'body']);
  });

  it('refuses missing fields, a bad type and a multi-line subject with 422', async () => {
    expect((await create({ name: 'x' })).statusCode).toBe(422);
    expect((await create({ ...base, type: 'PROMO' })).statusCode).toBe(422);
    expect((await create({ ...base, subject: 'a\r\nBcc: x@evil.test' })).statusCode).toBe(422);
    expect((await create({ ...base, from: 'not-an-email' })).statusCode).toBe(422);
  });

  it('keeps sample data with the template: saved, returned, replaced, cleared', async () => {
    const sampleData = { firstName: 'Ada', user: { plan: 'pro', logins: 3 }, tags: ['a', 'b'] };
    const created = await create({ ...base, sampleData });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    expect(created.json().data.sampleData).toEqual(sampleData);
    const get = async () =>
      (await m.t.app.inject({ method: 'GET', url: `/templates/${id}`, headers: auth })).json().data;
    expect((await get()).sampleData).toEqual(sampleData);
    const patch = (payload: Record<string, unknown>) =>
      m.t.app.inject({ method: 'PATCH', url: `/templates/${id}`, headers: auth, payload });
    expect((await patch({ subject: 'Other' })).json().data.sampleData).toEqual(sampleData);
    expect((await patch({ sampleData: { firstName: 'Grace' } })).json().data.sampleData).toEqual({
      firstName: 'Grace',
    });
    expect((await get()).sampleData).toEqual({ firstName: 'Grace' });
    expect((await patch({ sampleData: null })).json().data.sampleData).toBeNull();
    expect((await create(base)).json().data.sampleData).toBeNull();
  });

  it('refuses sample data that is no JSON object, or too big, with 422', async () => {
    for (const sampleData of [[1, 2], 'text', 42, true])
      expectValidation(await create({ ...base, sampleData }), 'sampleData');
    const big = await create({ ...base, sampleData: { blob: 'x'.repeat(17_000) } });
    expect(expectValidation(big, 'sampleData').error.errors?.[0]?.message).toContain('16 KB');
    const id = (await create(base)).json().data.id as string;
    expectValidation(
      await m.t.app.inject({ method: 'PATCH', url: `/templates/${id}`, headers: auth, payload: { sampleData: ['x'] } }),
      'sampleData',
    );
    expect(
      (await m.t.app.inject({ method: 'GET', url: `/templates/${id}`, headers: auth })).json().data.sampleData,
    ).toBeNull();
    expectError(
      await m.t.app.inject({
        method: 'PATCH',
        url: '/templates/not-an-id',
        headers: auth,
        payload: { sampleData: {} },
      }),
      404,
      'NOT_FOUND',
    );
  });
});
