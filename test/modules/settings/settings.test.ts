import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';

describe('project settings', () => {
  let t: TestApp;
  /** A project that may send from herald.localhost (every project made while sending to the outbox has it). */
  let sender: Awaited<ReturnType<TestApp['createProject']>>;
  beforeAll(async () => {
    t = await createTestApp();
    sender = await t.createProject();
  });
  afterAll(() => t.close());

  const call = (
    auth: { authorization: string },
    method: 'GET' | 'PATCH' | 'POST' | 'DELETE',
    url: string,
    payload?: unknown,
  ) => t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('answers the defaults until something is chosen, then keeps each choice apart', async () => {
    const p = await t.createProject('Acme News');
    const first = await call(p.auth, 'GET', '/settings');
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({
      name: 'Acme News',
      timezone: 'UTC',
      tracking: 'MARKETING_ONLY',
      doubleOptIn: null,
      maxBounceRate: 0.08,
      maxComplaintRate: 0.003,
      requireTwoFactor: false,
      frequencyCap: null,
      checkErrors: [],
      defaultLayoutId: null,
      defaultFrom: null,
      dormantAfterDays: 180,
      sunset: { action: 'none' },
      updatedAt: null,
    });

    const changed = await call(p.auth, 'PATCH', '/settings', { timezone: 'Europe/Paris', tracking: 'NONE' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({
      name: 'Acme News',
      timezone: 'Europe/Paris',
      tracking: 'NONE',
      maxBounceRate: 0.08,
    });
    expect(changed.json().data.updatedAt).toEqual(expect.any(String));

    const renamed = await call(p.auth, 'PATCH', '/settings', { name: 'Acme Weekly', maxComplaintRate: 0.001 });
    expect(renamed.json().data).toMatchObject({
      name: 'Acme Weekly',
      timezone: 'Europe/Paris',
      tracking: 'NONE',
      maxComplaintRate: 0.001,
    });
    expect(
      (await t.app.inject({ method: 'GET', url: `/admin/projects/${p.id}`, headers: t.admin })).json().data.name,
    ).toBe('Acme Weekly');

    // Another project still has its defaults.
    const other = await t.createProject();
    expect((await call(other.auth, 'GET', '/settings')).json().data).toMatchObject({
      timezone: 'UTC',
      tracking: 'MARKETING_ONLY',
    });
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
      if (field)
        expect(JSON.stringify(res.json().error.errors ?? res.json().error), JSON.stringify(body)).toContain(field);
    }
    expect((await call(p.auth, 'GET', '/settings')).json().data.updatedAt).toBeNull();
    expect((await call({ authorization: `Bearer ${p.publicKey}` }, 'GET', '/settings')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/settings' })).statusCode).toBe(401);
  });

  it(
    'takes a confirmation template with a sender that links to {{confirmUrl}}, and ' +
      'keeps it from being deleted while chosen',
    async () => {
      await call(sender.auth, 'PATCH', '/settings', { doubleOptIn: null });
      const template = async (body: string, from: string | null = 'hello@herald.localhost') =>
        (
          await call(sender.auth, 'POST', '/templates', {
            name: 'Confirm',
            subject: 'Confirm your subscription',
            body,
            type: 'MARKETING',
            ...(from ? { from } : {}),
          })
        ).json().data.id as string;
      const without = await template('<p>Thanks!</p>');
      const res = await call(sender.auth, 'PATCH', '/settings', { doubleOptIn: { templateId: without } });
      expect(res.statusCode).toBe(422);
      expect(res.json().error.errors[0]).toMatchObject({
        field: 'doubleOptIn.templateId',
        code: 'missing_confirm_url',
      });
      // Without a sender no confirmation email could go out: every signup would fail.
      const senderless = await call(sender.auth, 'PATCH', '/settings', {
        doubleOptIn: { templateId: await template('<a href="{{confirmUrl}}">Confirm</a>', null) },
      });
      expect(senderless.statusCode).toBe(422);
      expect(senderless.json().error.errors[0]).toMatchObject({
        field: 'doubleOptIn.templateId',
        code: 'missing_from',
        message: 'The confirmation template must have a sender (from)',
      });
      expect((await call(sender.auth, 'GET', '/settings')).json().data.doubleOptIn).toBeNull();

      const confirm = await template('<a href="{{ confirmUrl }}">Confirm</a>');
      const set = await call(sender.auth, 'PATCH', '/settings', { doubleOptIn: { templateId: confirm } });
      expect(set.statusCode).toBe(200);
      expect(set.json().data.doubleOptIn).toEqual({ templateId: confirm });

      // Another project's template is not this project's.
      const other = await t.createProject();
      expect((await call(other.auth, 'PATCH', '/settings', { doubleOptIn: { templateId: confirm } })).statusCode).toBe(
        422,
      );

      const blocked = await call(sender.auth, 'DELETE', `/templates/${confirm}`);
      expect(blocked.statusCode).toBe(409);
      expect(blocked.json().error.message).toContain('double opt-in');

      expect((await call(sender.auth, 'PATCH', '/settings', { doubleOptIn: null })).json().data.doubleOptIn).toBeNull();
      expect((await call(sender.auth, 'DELETE', `/templates/${confirm}`)).statusCode).toBe(200);
    },
  );

  it(
    'refuses a change that would take the sender or the {{confirmUrl}} link from the ' + 'chosen confirmation template',
    async () => {
      const create = async () =>
        (
          await call(sender.auth, 'POST', '/templates', {
            name: 'Confirm',
            subject: 'Confirm',
            body: '<a href="{{confirmUrl}}">Confirm</a>',
            type: 'MARKETING',
            from: 'hello@herald.localhost',
          })
        ).json().data.id as string;
      const chosen = await create();
      const spare = await create();
      expect((await call(sender.auth, 'PATCH', '/settings', { doubleOptIn: { templateId: chosen } })).statusCode).toBe(
        200,
      );

      for (const [change, what] of [
        [{ body: '<p>Welcome!</p>' }, '{{confirmUrl}}'],
        [{ from: null }, 'sender'],
      ] as const) {
        const refused = await call(sender.auth, 'PATCH', `/templates/${chosen}`, change);
        expect(refused.statusCode, refused.body).toBe(409);
        expect(refused.json().error).toMatchObject({
          code: 'CONFLICT',
          message: expect.stringContaining('confirmation email of double opt-in'),
        });
        expect(refused.json().error.message).toContain(what);
        expect(refused.json().error.suggestion).toContain('PATCH /settings');
      }
      expect((await call(sender.auth, 'GET', `/templates/${chosen}`)).json().data).toMatchObject({
        body: '<a href="{{confirmUrl}}">Confirm</a>',
        from: 'hello@herald.localhost',
      });

      // What keeps both is fine; so is any change to a template that is not the confirmation email.
      const kept = await call(sender.auth, 'PATCH', `/templates/${chosen}`, {
        subject: 'Please confirm',
        body: '<p>One click: <a href="{{ confirmUrl }}">confirm</a></p>',
      });
      expect(kept.statusCode, kept.body).toBe(200);
      expect(
        (await call(sender.auth, 'PATCH', `/templates/${spare}`, { body: '<p>Welcome!</p>', from: null })).statusCode,
      ).toBe(200);
      // Once double opt-in uses another template, the first one is free again.
      await call(sender.auth, 'PATCH', `/templates/${spare}`, {
        body: '<a href="{{confirmUrl}}">Confirm</a>',
        from: 'hello@herald.localhost',
      });
      expect((await call(sender.auth, 'PATCH', '/settings', { doubleOptIn: { templateId: spare } })).statusCode).toBe(
        200,
      );
      expect((await call(sender.auth, 'PATCH', `/templates/${chosen}`, { from: null })).statusCode).toBe(200);
    },
  );
});
