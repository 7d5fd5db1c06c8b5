// People sign in with a password: the first user from the setup link, sessions in the database ended by sign-out and
// password changes, the same 401 for an unknown email and a wrong password, and limits on failures that hold even
// for the right password.
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError } from '../../support/envelope.ts';
import { firstUser, PASSWORD, person, sessionCookieOf, signIn, type Person } from '../../support/people.ts';

describe('sign-in', () => {
  let t: TestApp;
  let owner: Person;
  let project: string;
  const logged: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        logged.push(String(chunk));
        done();
      },
    });
    t = await createTestApp({ logger: pino({ level: 'debug' }, sink) });
    project = (await t.createProject('Existing')).id;
    owner = await firstUser(t);
  });
  afterAll(() => t.close());

  it('makes the first user an instance admin and owner of the projects there were, signed in', async () => {
    const session = await owner.call('GET', '/auth/session');
    expect(session.statusCode).toBe(200);
    const data = session.json().data;
    expect(data.user).toMatchObject({ email: 'owner@example.com', isAdmin: true, twoFactor: false });
    expect(data.projects).toEqual(expect.arrayContaining([{ id: project, name: 'Existing', role: 'owner' }]));
    expect(data.csrfToken).toEqual(expect.any(String));
    expect(JSON.stringify(data)).not.toMatch(/scrypt|passwordHash/);
  });

  it('refuses the setup link once a user exists (410)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/setup',
      payload: { token: 'x'.repeat(43), email: 'late@example.com', name: 'Late', password: PASSWORD },
    });
    expectError(res, 410, 'GONE');
  });

  it('sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: { email: 'OWNER@example.com', password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const header = String(res.headers['set-cookie']);
    expect(header).toMatch(/^herald_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
  });

  it('answers an unknown email and a wrong password the same', async () => {
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: { email: 'nobody@example.com', password: PASSWORD },
    });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: { email: 'owner@example.com', password: 'not the password at all' },
    });
    expectError(unknown, 401, 'INVALID_CREDENTIALS');
    expectError(wrong, 401, 'INVALID_CREDENTIALS');
    const strip = (body: { error: { requestId: string }; timestamp: string }) => ({
      ...body,
      timestamp: '',
      error: { ...body.error, requestId: '' },
    });
    expect(strip(unknown.json())).toEqual(strip(wrong.json()));
  });

  it('answers 429 with Retry-After after 5 failures for an email, even for the right password', async () => {
    await firstMember(t, project, owner, 'locked@example.com');
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        remoteAddress: `10.0.0.${i + 1}`,
        payload: { email: 'locked@example.com', password: `wrong password ${i}` },
      });
      expect(res.statusCode).toBe(401);
    }
    const right = await t.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      remoteAddress: '10.0.1.1',
      payload: { email: 'locked@example.com', password: PASSWORD },
    });
    expectError(right, 429, 'RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(right.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('keeps answering 10,000 attempts from one address, with 429 after 30 failures', async () => {
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 100; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/auth/sign-in',
            remoteAddress: '192.0.2.77',
            payload: { email: `spray${batch * 100 + i}@example.com`, password: 'guess guess guess' },
          }),
        ),
      );
      for (const res of answers) statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    }
    expect(statuses.get(401)).toBeGreaterThanOrEqual(30);
    expect(statuses.get(401)).toBeLessThan(130);
    expect(statuses.get(429)).toBe(10_000 - statuses.get(401)!);
    // Another address is not held by it.
    const other = await t.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      remoteAddress: '192.0.2.78',
      payload: { email: 'owner@example.com', password: PASSWORD },
    });
    expect(other.statusCode).toBe(200);
  }, 120_000);

  it('ends a session at sign-out: its cookie answers 401 after', async () => {
    const me = await signIn(t, 'owner@example.com');
    const stolen = me.cookie!;
    expect((await me.call('POST', '/auth/sign-out')).statusCode).toBe(200);
    const replay = await t.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: stolen } });
    expectError(replay, 401, 'UNAUTHORIZED');
    const asProject = await t.app.inject({
      method: 'GET',
      url: '/contacts',
      headers: { cookie: stolen, 'herald-project': project },
    });
    expectError(asProject, 401, 'UNAUTHORIZED');
  });

  it('ends every other session when the password changes; the one that changed it goes on', async () => {
    const member = await firstMember(t, project, owner, 'changer@example.com');
    const elsewhere = await signIn(t, 'changer@example.com');
    const wrong = await member.call('PATCH', '/auth/me', {
      payload: { password: 'a brand new passphrase', currentPassword: 'not it at all' },
    });
    expectError(wrong, 422, 'VALIDATION_ERROR');
    const changed = await member.call('PATCH', '/auth/me', {
      payload: { password: 'a brand new passphrase', currentPassword: PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    expectError(await elsewhere.call('GET', '/auth/session'), 401, 'UNAUTHORIZED');
    expect((await member.call('GET', '/auth/session')).statusCode).toBe(200);
    await signIn(t, 'changer@example.com', 'a brand new passphrase');
  });

  it('names the password rule broken (422)', async () => {
    for (const [password, code] of [
      ['short', 'too_short'],
      ['1234567890', 'too_common'],
      ['qwertyuiop', 'too_common'],
      ['x'.repeat(257), 'too_long'],
    ] as const) {
      const res = await owner.call('PATCH', '/auth/me', { payload: { password, currentPassword: PASSWORD } });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.json().error.errors[0]).toMatchObject({ field: 'password', code });
    }
  });

  it('needs the CSRF token and our own origin for changes made with a cookie (403)', async () => {
    const noToken = await owner.call('POST', '/contacts', {
      project,
      payload: { email: 'a@example.com' },
      csrf: false,
    });
    expectError(noToken, 403, 'CSRF');
    const wrongToken = await owner.call('POST', '/contacts', {
      project,
      payload: { email: 'a@example.com' },
      csrf: false,
      headers: { 'x-csrf-token': 'nope' },
    });
    expectError(wrongToken, 403, 'CSRF');
    const foreign = await owner.call('POST', '/contacts', {
      project,
      payload: { email: 'a@example.com' },
      headers: { origin: 'https://evil.example' },
    });
    expectError(foreign, 403, 'CSRF');
    const same = await owner.call('POST', '/contacts', {
      project,
      payload: { email: 'a@example.com' },
      headers: { origin: 'http://localhost:80' },
    });
    expect(same.statusCode).toBe(201);
  });

  it("needs Herald-Project with a cookie (400), and a project of the member's (404)", async () => {
    expectError(await owner.call('GET', '/contacts'), 400, 'BAD_REQUEST');
    expectError(
      await owner.call('GET', '/contacts', { project: '0190aaaa-0000-7000-8000-000000000000' }),
      404,
      'NOT_FOUND',
    );
    expectError(await owner.call('GET', '/contacts', { project: 'not-a-uuid' }), 404, 'NOT_FOUND');
  });

  it('lets a key decide when a request has a key and a cookie', async () => {
    const other = await t.createProject('Keyed');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api-keys/current',
      headers: { ...other.auth, cookie: owner.cookie!, 'herald-project': project },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.project.id).toBe(other.id);
  });

  it('refuses keys on the routes for people (403)', async () => {
    const { auth } = await t.createProject('Keys only');
    expectError(await t.app.inject({ method: 'GET', url: '/auth/session', headers: auth }), 403, 'FORBIDDEN');
    expectError(await t.app.inject({ method: 'GET', url: '/team', headers: auth }), 403, 'FORBIDDEN');
    expectError(await t.app.inject({ method: 'POST', url: '/auth/2fa/setup', headers: auth }), 403, 'FORBIDDEN');
  });

  it(
    'ends a session after SESSION_IDLE_HOURS without a request, and 30 days after ' + 'sign-in however active',
    async () => {
      const idle = await signIn(t, 'owner@example.com');
      const old = await signIn(t, 'owner@example.com');
      const hash = (p: Person) =>
        createHash('sha256')
          .update(decodeURIComponent(p.cookie!.split('=')[1]!))
          .digest('hex');
      await t.ctx.db.execute(
        sql`UPDATE user_sessions SET last_seen_at = now() - interval '13 hours' WHERE token_hash = ${hash(idle)}`,
      );
      await t.ctx.db.execute(
        sql`UPDATE user_sessions SET expires_at = now() - interval '1 second' WHERE token_hash = ${hash(old)}`,
      );
      expectError(await idle.call('GET', '/auth/session'), 401, 'UNAUTHORIZED');
      expectError(await old.call('GET', '/auth/session'), 401, 'UNAUTHORIZED');
    },
  );

  it('lets an instance admin use the admin API with a session, and nobody else', async () => {
    const list = await owner.call('GET', '/admin/projects');
    expect(list.statusCode).toBe(200);
    const made = await owner.call('POST', '/admin/projects', { payload: { name: 'Made by a person' } });
    expect(made.statusCode).toBe(201);
    const mine = (await owner.call('GET', '/auth/session')).json().data.projects as { name: string; role: string }[];
    expect(mine).toContainEqual(expect.objectContaining({ name: 'Made by a person', role: 'owner' }));
    const member = await signIn(t, 'changer@example.com', 'a brand new passphrase');
    expectError(await member.call('GET', '/admin/projects'), 403, 'FORBIDDEN');
  });

  it('writes no password, session id or CSRF token in any log line or audit entry', async () => {
    const audit = await t.app.inject({ method: 'GET', url: '/admin/audit-log?limit=100', headers: t.admin });
    expect(audit.json().data.items.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['user.signed_in', 'user.sign_in_failed', 'user.signed_out', 'user.password_changed']),
    );
    const text = logged.join('') + audit.body;
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain('a brand new passphrase');
    expect(text).not.toContain(owner.cookie!.split('=')[1]!);
    expect(text).not.toContain(owner.csrfToken!);
  });
});

/** A member added by invitation (the team's own path), signed in. */
async function firstMember(t: TestApp, project: string, owner: Person, email: string): Promise<Person> {
  const invite = await owner.call('POST', '/team/invites', { project, payload: { email, role: 'editor' } });
  expect(invite.statusCode).toBe(201);
  const token = new URL(invite.json().data.inviteUrl).hash.slice(1);
  const accepted = await t.app.inject({
    method: 'POST',
    url: '/auth/accept-invite',
    payload: { token, name: 'Member', password: PASSWORD },
  });
  expect(accepted.statusCode).toBe(200);
  return person(t, email, sessionCookieOf(accepted), accepted.json().data.csrfToken);
}
