/**
 * People in tests: a person is a cookie jar (the session cookie) and the session's CSRF token, making requests as a
 * browser would: `const owner = await firstUser(t)`, then `owner.call('GET', '/contacts', { project })`.
 */
import type { LightMyRequestResponse } from 'fastify';
import { ensureSetupToken } from '../../src/modules/accounts/index.ts';
import type { TestApp } from './app.ts';

export const PASSWORD = 'correct horse battery staple';

export interface Person {
  email: string;
  cookie: string | null;
  csrfToken: string | null;
  /** A request with the session cookie, the CSRF token on unsafe methods, and Herald-Project when given. */
  call(
    method: string,
    url: string,
    opts?: { project?: string; payload?: unknown; headers?: Record<string, string>; csrf?: boolean },
  ): Promise<LightMyRequestResponse>;
}

/** The session cookie a response sets (`herald_session=…`), or null. */
export function sessionCookieOf(res: LightMyRequestResponse): string | null {
  const header = res.headers['set-cookie'];
  const values = Array.isArray(header) ? header : header ? [header] : [];
  const found = values.find((v) => v.startsWith('herald_session='));
  return found ? found.split(';')[0]! : null;
}

export function person(t: TestApp, email: string, cookie: string | null, csrfToken: string | null): Person {
  const me: Person = {
    email,
    cookie,
    csrfToken,
    async call(method, url, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (me.cookie) headers.cookie = me.cookie;
      if (opts.project) headers['herald-project'] = opts.project;
      if (me.csrfToken && opts.csrf !== false && !['GET', 'HEAD'].includes(method))
        headers['x-csrf-token'] = me.csrfToken;
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        headers,
        ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}),
      });
      const cookie = sessionCookieOf(res);
      if (cookie) {
        me.cookie = cookie.endsWith('=') ? null : cookie;
        const body = res.json() as { data?: { csrfToken?: string } };
        if (body.data?.csrfToken) me.csrfToken = body.data.csrfToken;
      }
      return res;
    },
  };
  return me;
}

/** Signs in with a password (and code); the person, or throws with the answer. */
export async function signIn(t: TestApp, email: string, password = PASSWORD, code?: string): Promise<Person> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/sign-in',
    payload: { email, password, ...(code ? { code } : {}) },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return person(t, email, sessionCookieOf(res), (res.json() as { data: { csrfToken: string } }).data.csrfToken);
}

/** The instance's first user (an instance admin, owner of every project), through the setup link. */
export async function firstUser(t: TestApp, email = 'owner@example.com'): Promise<Person> {
  const token = await ensureSetupToken(t.ctx.db);
  if (!token) throw new Error('the instance has a user or a setup link already');
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/setup',
    payload: { token, email, name: 'Olivia Owner', password: PASSWORD },
  });
  if (res.statusCode !== 201) throw new Error(`setup failed: ${res.statusCode} ${res.body}`);
  return person(t, email, sessionCookieOf(res), (res.json() as { data: { csrfToken: string } }).data.csrfToken);
}

/**
 * Invites `email` with `role` into the project as `inviter`, and accepts as a new account; the new member, signed in.
 */
export async function invitedMember(
  t: TestApp,
  inviter: Person,
  project: string,
  email: string,
  role: string,
): Promise<Person> {
  const invite = await inviter.call('POST', '/team/invites', { project, payload: { email, role } });
  if (invite.statusCode !== 201) throw new Error(`invite failed: ${invite.statusCode} ${invite.body}`);
  const token = new URL((invite.json() as { data: { inviteUrl: string } }).data.inviteUrl).hash.slice(1);
  const accepted = await t.app.inject({
    method: 'POST',
    url: '/auth/accept-invite',
    payload: { token, name: email.split('@')[0], password: PASSWORD },
  });
  if (accepted.statusCode !== 200) throw new Error(`accept failed: ${accepted.statusCode} ${accepted.body}`);
  return person(
    t,
    email,
    sessionCookieOf(accepted),
    (accepted.json() as { data: { csrfToken: string } }).data.csrfToken,
  );
}
