import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';

describe('project settings', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(() => t.close());

  const call = (auth: { authorization: string }, method: 'GET' | 'PATCH' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('answers the defaults until something is chosen, then keeps each choice apart', async () => {
    const p = await t.createProject('Acme News');
    const first = await call(p.auth, 'GET', '/settings');
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({
      name: 'Acme News', timezone: 'UTC', tracking: 'MARKETING_ONLY', doubleOptIn: null, maxBounceRate: 0.08, maxComplaintRate: 0.003, updatedAt: null,
    });

    const changed = await call(p.auth, 'PATCH', '/settings', { timezone: 'Europe/Paris', tracking: 'NONE' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({ name: 'Acme News', timezone: 'Europe/Paris', tracking: 'NONE', maxBounceRate: 0.08 });
    expect(changed.json().data.updatedAt).toEqual(expect.any(String));

    const renamed = await call(p.auth, 'PATCH', '/settings', { name: 'Acme Weekly', maxComplaintRate: 0.001 });
    expect(renamed.json().data).toMatchObject({ name: 'Acme Weekly', timezone: 'Europe/Paris', tracking: 'NONE', maxComplaintRate: 0.001 });
    expect((await t.app.inject({ method: 'GET', url: `/admin/projects/${p.id}`, headers: t.admin })).json().data.name).toBe('Acme Weekly');

    // Another project still has its defaults.
    const other = await t.createProject();
    expect((await call(other.auth, 'GET', '/settings')).json().data).toMatchObject({ timezone: 'UTC', tracking: 'MARKETING_ONLY' });
  });

  it('refuses bad values with a 422 naming the field, and public keys with a 403', async () => {
    const p = await t.createProject();
    const bad: [object, string][] = [
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ timezone: '' }, 'timezone'],
      [{ tracking: 'SOME' }, 'tracking'],
      [{ maxBounceRate: 0 }, 'maxBounceRate'],
      [{ maxBounceRate: 1.5 }, 'maxBounceRate'],
      [{ maxComplaintRate: '0.1' }, 'maxComplaintRate'],
      [{ doubleOptIn: { templateId: '00000000-0000-4000-8000-000000000000' } }, 'doubleOptIn.templateId'],
      [{ doubleOptIn: { templateId: 'nope' } }, 'doubleOptIn.templateId'],
      [{ colour: 'blue' }, ''],
    ];
    for (const [body, field] of bad) {
      const res = await call(p.auth, 'PATCH', '/settings', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      if (field) expect(JSON.stringify(res.json().error.errors ?? res.json().error), JSON.stringify(body)).toContain(field);
    }
    expect((await call(p.auth, 'GET', '/settings')).json().data.updatedAt).toBeNull();
    expect((await call({ authorization: `Bearer ${p.publicKey}` }, 'GET', '/settings')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/settings' })).statusCode).toBe(401);
  });

  it('takes a confirmation template that links to {{confirmUrl}}, and keeps it from being deleted while chosen', async () => {
    const p = await t.createProject();
    const template = async (body: string) => (await call(p.auth, 'POST', '/templates', { name: 'Confirm', subject: 'Confirm your subscription', body, type: 'MARKETING' })).json().data.id as string;
    const without = await template('<p>Thanks!</p>');
    const res = await call(p.auth, 'PATCH', '/settings', { doubleOptIn: { templateId: without } });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.errors[0]).toMatchObject({ field: 'doubleOptIn.templateId', code: 'missing_confirm_url' });

    const confirm = await template('<a href="{{ confirmUrl }}">Confirm</a>');
    const set = await call(p.auth, 'PATCH', '/settings', { doubleOptIn: { templateId: confirm } });
    expect(set.statusCode).toBe(200);
    expect(set.json().data.doubleOptIn).toEqual({ templateId: confirm });

    // Another project's template is not this project's.
    const other = await t.createProject();
    expect((await call(other.auth, 'PATCH', '/settings', { doubleOptIn: { templateId: confirm } })).statusCode).toBe(422);

    const blocked = await call(p.auth, 'DELETE', `/templates/${confirm}`);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().error.message).toContain('double opt-in');

    expect((await call(p.auth, 'PATCH', '/settings', { doubleOptIn: null })).json().data.doubleOptIn).toBeNull();
    expect((await call(p.auth, 'DELETE', `/templates/${confirm}`)).statusCode).toBe(200);
  });
});
