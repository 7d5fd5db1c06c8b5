// Two-factor (TOTP) and password resets: a code at sign-in once two-factor is on, each code and recovery code good
// once, a per-project requirement; reset links single use and the same answer for unknown addresses.
import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError } from '../../support/envelope.ts';
import { until } from '../../support/until.ts';
import { firstUser, invitedMember, PASSWORD, signIn, type Person } from '../../support/people.ts';

const totp = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

describe('two-factor and password reset', () => {
  let t: TestApp;
  let owner: Person;
  let project: string;

  beforeAll(async () => {
    t = await createTestApp();
    project = (await t.createProject('2FA project')).id;
    owner = await firstUser(t);
  });
  afterAll(() => t.close());

  it('turns two-factor on with a code, then asks for one at sign-in; codes and recovery codes work once', async () => {
    const member = await invitedMember(t, owner, project, 'twofa@example.com', 'editor');
    const setup = await member.call('POST', '/auth/2fa/setup');
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl } = setup.json().data;
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Herald:twofa%40example\.com\?.*secret=/);
    expectError(
      await member.call('POST', '/auth/2fa/enable', { payload: { code: '000000' } }),
      422,
      'VALIDATION_ERROR',
    );
    const enabled = await member.call('POST', '/auth/2fa/enable', { payload: { code: totp(secret).generate() } });
    expect(enabled.statusCode).toBe(200);
    const codes: string[] = enabled.json().data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);

    const noCode = await t.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: { email: 'twofa@example.com', password: PASSWORD },
    });
    expectError(noCode, 401, 'TWO_FACTOR_REQUIRED');
    expect(noCode.headers['set-cookie']).toBeUndefined();
    // The code used to enable is spent; the next time step's code works once.
    const next = totp(secret).generate({ timestamp: Date.now() + 30_000 });
    await signIn(t, 'twofa@example.com', PASSWORD, next);
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        payload: { email: 'twofa@example.com', password: PASSWORD, code: next },
      }),
      401,
      'TWO_FACTOR_REQUIRED',
    );
    await signIn(t, 'twofa@example.com', PASSWORD, codes[0]);
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        payload: { email: 'twofa@example.com', password: PASSWORD, code: codes[0] },
      }),
      401,
      'TWO_FACTOR_REQUIRED',
    );
    const team = await owner.call('GET', '/team', { project });
    expect(team.json().data.find((m: { email: string }) => m.email === 'twofa@example.com').twoFactor).toBe(true);

    // The secret and the codes are nowhere in the audit log.
    const audit = await t.app.inject({ method: 'GET', url: '/admin/audit-log?limit=100', headers: t.admin });
    expect(audit.body).toContain('user.two_factor_enabled');
    expect(audit.body).not.toContain(secret);
    for (const code of codes) expect(audit.body).not.toContain(code);

    const off = await member.call('POST', '/auth/2fa/disable', { payload: { password: PASSWORD, code: codes[1] } });
    expect(off.statusCode).toBe(200);
    await signIn(t, 'twofa@example.com');
  });

  it('holds members of a project requiring two-factor to setting it up (403); only an owner requires it', async () => {
    const admin = await invitedMember(t, owner, project, 'admin2fa@example.com', 'admin');
    expectError(
      await admin.call('PATCH', '/settings', { project, payload: { requireTwoFactor: true } }),
      403,
      'FORBIDDEN',
    );
    const key = (await owner.call('POST', '/api-keys', { project, payload: { type: 'secret', name: 'k' } })).json().data
      .key;
    expectError(
      await t.app.inject({
        method: 'PATCH',
        url: '/settings',
        headers: { authorization: `Bearer ${key}` },
        payload: { requireTwoFactor: true },
      }),
      403,
      'FORBIDDEN',
    );

    // The owner turns it on after setting up two-factor themselves.
    const setup = (await owner.call('POST', '/auth/2fa/setup')).json().data;
    await owner.call('POST', '/auth/2fa/enable', { payload: { code: totp(setup.secret).generate() } });
    expect((await owner.call('PATCH', '/settings', { project, payload: { requireTwoFactor: true } })).statusCode).toBe(
      200,
    );
    const held = expectError(await admin.call('GET', '/contacts', { project }), 403, 'TWO_FACTOR_REQUIRED');
    expect(held.error.message).toMatch(/requires two-factor/);
    const adminSetup = await admin.call('POST', '/auth/2fa/setup');
    expect(adminSetup.statusCode).toBe(200);
    await admin.call('POST', '/auth/2fa/enable', { payload: { code: totp(adminSetup.json().data.secret).generate() } });
    expect((await admin.call('GET', '/contacts', { project })).statusCode).toBe(200);
    expect((await owner.call('PATCH', '/settings', { project, payload: { requireTwoFactor: false } })).statusCode).toBe(
      200,
    );
  });

  it('answers any reset request the same, and mails a single-use link that ends every session', async () => {
    const member = await invitedMember(t, owner, project, 'forgetful@example.com', 'viewer');
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/auth/password-reset',
      payload: { email: 'nobody@example.com' },
    });
    const known = await t.app.inject({
      method: 'POST',
      url: '/auth/password-reset',
      payload: { email: 'forgetful@example.com' },
    });
    expect(unknown.statusCode).toBe(202);
    expect(known.statusCode).toBe(202);
    expect(unknown.json().data).toEqual(known.json().data);

    const outbox = path.join(t.ctx.config.dataDir, 'outbox');
    const linkInMail = () => {
      // The invitation went to the same address: the reset mail is the one with the reset link.
      const mails = fs.existsSync(outbox)
        ? fs
            .readdirSync(outbox)
            .filter((f) => f.endsWith('.eml'))
            .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
        : [];
      const links = mails
        .filter((m) => m.includes('To: forgetful@example.com'))
        .map((m) => m.replace(/=\r\n/g, '').match(/http:\/\/localhost:\d+\/reset-password#[\w-]{43}/)?.[0]);
      return links.find(Boolean);
    };
    await until(async () => linkInMail() !== undefined, 'the reset mail in the outbox', 30_000);
    const link = linkInMail();
    expect(link).toBeDefined();
    const token = new URL(link!).hash.slice(1);
    const confirm = () =>
      t.app.inject({
        method: 'POST',
        url: '/auth/password-reset/confirm',
        payload: { token, password: 'fresh and long passphrase' },
      });
    expect((await confirm()).statusCode).toBe(200);
    expectError(await confirm(), 410, 'GONE');
    expectError(await member.call('GET', '/auth/session'), 401, 'UNAUTHORIZED');
    await signIn(t, 'forgetful@example.com', 'fresh and long passphrase');
  });

  it("makes users with a one-time set-password link (the CLI's admin route)", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/users',
      headers: t.admin,
      payload: { email: 'scripted@example.com', projectId: project, role: 'editor' },
    });
    expect(res.statusCode).toBe(201);
    const token = new URL(res.json().data.setPasswordUrl).hash.slice(1);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/auth/password-reset/confirm',
          payload: { token, password: 'scripted install pass' },
        })
      ).statusCode,
    ).toBe(200);
    const scripted = await signIn(t, 'scripted@example.com', 'scripted install pass');
    expect((await scripted.call('GET', '/auth/session')).json().data.projects).toEqual([
      { id: project, name: '2FA project', role: 'editor' },
    ]);
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/admin/users',
        headers: t.admin,
        payload: { email: 'scripted@example.com' },
      }),
      409,
      'CONFLICT',
    );
  });
});

describe('removing a user', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('ends their sessions at once, but keeps the last owner of a project (409)', async () => {
    const project = (await t.createProject('Kept')).id;
    const owner = await firstUser(t);
    const member = await invitedMember(t, owner, project, 'leaving@example.com', 'editor');
    const users = (await t.app.inject({ method: 'GET', url: '/admin/users', headers: t.admin })).json().data as {
      id: string;
      email: string;
    }[];
    const memberId = users.find((u) => u.email === 'leaving@example.com')!.id;
    const ownerId = users.find((u) => u.email === 'owner@example.com')!.id;
    expectError(
      await t.app.inject({ method: 'DELETE', url: `/admin/users/${ownerId}`, headers: t.admin }),
      409,
      'CONFLICT',
    );
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/admin/users/${memberId}`, headers: t.admin })).statusCode,
    ).toBe(200);
    expectError(await member.call('GET', '/contacts', { project }), 401, 'UNAUTHORIZED');
    expectError(
      await t.app.inject({ method: 'DELETE', url: `/admin/users/${memberId}`, headers: t.admin }),
      404,
      'NOT_FOUND',
    );
  });
});
