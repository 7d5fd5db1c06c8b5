import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectValidation } from '../../support/envelope.ts';

describe('POST /templates/preview', () => {
  let t: TestApp;
  let auth: { authorization: string };

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://mail.herald.test' } });
    auth = (await t.createProject()).auth;
  });
  afterAll(() => t.close());

  const preview = (payload: Record<string, unknown>, headers = auth) =>
    t.app.inject({ method: 'POST', url: '/templates/preview', headers, payload });

  it('renders subject, HTML and text as a send would: escaped outputs, fallbacks, the sample recipient', async () => {
    const res = await preview({
      subject: 'Hi {{ firstName ?? "there" }} <{{ email }}>',
      body:
        '<p>Hello {{ firstName }}, your plan: {{ plan | upcase }}. {{ html }} {{ html | ' +
        'raw }}</p><a href="{{ unsubscribeUrl }}">Unsubscribe</a>',
      data: { firstName: 'Ada', plan: 'pro', html: '<b>x</b>' },
      email: 'Ada@Example.com',
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { subject: string; html: string; text: string };
    expect(data.subject).toBe('Hi Ada <ada@example.com>');
    expect(data.html).toContain('Hello Ada, your plan: PRO. &lt;b&gt;x&lt;/b&gt; <b>x</b>');
    expect(data.html).toContain('href="https://mail.herald.test/unsubscribe/preview"');
    expect(data.text).toContain('Hello Ada, your plan: PRO.');
    expect(data.text).not.toContain('<p>');
  });

  it('uses the fallback and a placeholder recipient without sample data', async () => {
    const data = (await preview({ subject: 'Hi {{ firstName ?? "there" }}', body: '<p>{{ email }}</p>' })).json().data;
    expect(data.subject).toBe('Hi there');
    expect(data.html).toBe('<p>preview@example.com</p>');
  });

  it(
    'renders for a contact picked by id: its address and data, sample data over it; ' + '404 for no such contact',
    async () => {
      const project = await t.createProject();
      const preview = (payload: Record<string, unknown>, headers = project.auth) =>
        t.app.inject({ method: 'POST', url: '/templates/preview', headers, payload });
      const contact = (
        await t.app.inject({
          method: 'POST',
          url: '/contacts',
          headers: project.auth,
          payload: { email: 'lee@dest.test', data: { firstName: 'Lee', logins: 7 } },
        })
      ).json().data;
      const template = {
        subject: 'Hi {{ firstName }}',
        body: '<p>{{ email }} logged in {{ logins }} times, plan {{ plan ?? "none" }}</p>',
      };
      const own = (await preview({ ...template, contactId: contact.id })).json().data;
      expect(own.subject).toBe('Hi Lee');
      expect(own.html).toBe('<p>lee@dest.test logged in 7 times, plan none</p>');
      const over = (await preview({ ...template, contactId: contact.id, data: { plan: 'pro', logins: 8 } })).json()
        .data;
      expect(over.html).toBe('<p>lee@dest.test logged in 8 times, plan pro</p>');
      expectError(await preview({ ...template, contactId: '01890000-0000-7000-8000-000000000000' }), 404, 'NOT_FOUND');
      expectError(await preview({ ...template, contactId: 'nope' }), 404, 'NOT_FOUND');
      const stranger = await t.createProject();
      expectError(await preview({ ...template, contactId: contact.id }, stranger.auth), 404, 'NOT_FOUND');
    },
  );

  it('answers a template that does not parse with a 422 naming the field, line and column', async () => {
    const body = expectValidation(await preview({ subject: 'ok', body: '<p>\n{% if x %}never closed</p>' }), 'body');
    expect(body.error.message).toMatch(/line 2/);
    expectValidation(await preview({ subject: 'Hi {{ name | nosuchfilter }}', body: 'b' }), 'subject');
    expectValidation(await preview({ subject: 'x', body: 'y', data: 'not an object' }), 'data');
  });

  it('names every field that does not parse, each once with its line and column', async () => {
    const res = await preview({ subject: 'Hi {{ name ', body: '<p>ok</p>\n<p>{% if x %}never closed</p>' });
    const body = expectValidation(res, 'subject');
    expect(body.error.errors).toEqual([
      expect.objectContaining({ field: 'subject', code: 'template_syntax', message: expect.stringMatching(/line 1/) }),
      expect.objectContaining({ field: 'body', code: 'template_syntax', message: expect.stringMatching(/line 2/) }),
    ]);
    expect(body.error.message).toMatch(/^subject: .*line 1.*; body: .*line 2/);
  });

  it('saves and sends nothing, and needs a secret key', async () => {
    await preview({ subject: 's', body: 'b', email: 'nobody@example.com' });
    expect((await t.app.inject({ url: '/templates', headers: auth })).json().data.total).toBe(0);
    expect((await t.app.inject({ url: '/contacts', headers: auth })).json().data.total).toBe(0);
    expect((await t.app.inject({ url: '/emails', headers: auth })).json().data.total).toBe(0);
    expectError(await preview({ subject: 's', body: 'b' }, { authorization: 'Bearer sk_nope' }), 401, 'UNAUTHORIZED');
  });

  it('is in the OpenAPI document with its body and answer', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    const op = doc.paths['/templates/preview']?.post;
    expect(op?.requestBody).toBeDefined();
    expect(op?.responses['200']).toBeDefined();
  });
});
