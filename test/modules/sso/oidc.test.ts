// Single sign-on against a real OpenID Connect issuer in the test process: who gets in (an account, an invitation,
// auto-join by domain), who is refused with a page saying why, and that an attempt cannot be forged or replayed.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail } from '../../../src/modules/accounts/index.ts';
import { CONTENT_SECURITY_POLICIES } from '../../../src/plugins/security-headers.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError } from '../../support/envelope.ts';
import { firstUser, invitedMember, PASSWORD, person, sessionCookieOf, type Person } from '../../support/people.ts';
import { PUBLIC_URL, REDIRECT_URI, startTestIssuer, type TestIssuer } from './issuer.ts';

/** The `name=value` of a cookie a response sets, or null. */
function cookieOf(res: LightMyRequestResponse, name: string): string | null {
  const header = res.headers['set-cookie'];
  const values = Array.isArray(header) ? header : header ? [header] : [];
  return values.find((v) => v.startsWith(`${name}=`)) ?? null;
}

const pairOf = (setCookie: string | null) => setCookie?.split(';')[0] ?? '';

interface Attempt {
  /** Herald's answer at the callback. */
  res: LightMyRequestResponse;
  /** The callback's path and query, as the issuer sent the browser to it. */
  callback: string;
  /** The attempt cookie (`herald_oidc=…`) the browser carried to the callback. */
  cookie: string;
}

/** Starts single sign-on at Herald, signs in at the issuer as `sub`, and comes back to Herald's callback. */
async function sso(t: TestApp, issuer: TestIssuer, sub: string | null): Promise<Attempt> {
  issuer.signInAs(sub);
  const start = await t.app.inject({ method: 'GET', url: '/auth/oidc/start' });
  expect(start.statusCode, start.body).toBe(302);
  const cookie = pairOf(cookieOf(start, 'herald_oidc'));
  const callback = (await issuer.authorize(start.headers.location as string)).slice(PUBLIC_URL.length);
  return { res: await t.app.inject({ method: 'GET', url: callback, headers: { cookie } }), callback, cookie };
}

/** The person a successful callback signed in (its session cookie), checked at GET /auth/session. */
async function signedIn(t: TestApp, attempt: Attempt, email: string): Promise<Person> {
  expect(attempt.res.statusCode, attempt.res.body).toBe(302);
  expect(attempt.res.headers.location).toBe('/');
  const cookie = sessionCookieOf(attempt.res);
  expect(cookie).not.toBeNull();
  const session = await t.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: cookie! } });
  expect(session.statusCode, session.body).toBe(200);
  expect(session.json().data.user.email).toBe(email);
  return person(t, email, cookie, session.json().data.csrfToken as string);
}

/** A refusal page: its status, that it says `text`, links back to sign-in, and has the hosted pages' policy. */
function expectRefusal(res: LightMyRequestResponse, status: number, text: RegExp): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.body).toMatch(text);
  expect(res.body).toContain('<a href="/">');
  expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICIES.hosted);
  // Nothing on the page comes from anywhere else.
  expect(res.body).not.toMatch(/(src|href)="(https?:)?\/\//);
  expect(sessionCookieOf(res)).toBeNull();
}

async function auditOf(t: TestApp, action: string) {
  const url = `/admin/audit-log?action=${action}&limit=100`;
  const res = await t.app.inject({ method: 'GET', url, headers: t.admin });
  return res.json().data.items as { actor: { label: string }; changes: Record<string, [unknown, unknown]> | null }[];
}

describe('single sign-on with OpenID Connect', () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let owner: Person;
  let project: string;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp({ env: issuer.env });
    project = (await t.createProject('SSO project')).id;
    owner = await firstUser(t);
    issuer.accounts.set('olivia', { email: 'Owner@Example.com', email_verified: true, name: 'Olivia at the issuer' });
  });
  afterAll(async () => {
    await t.close();
    await issuer.close();
  });

  it('redirects to the issuer with PKCE, state and nonce, keeping the attempt in a sealed cookie', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/auth/oidc/start' });
    expect(res.statusCode).toBe(302);
    expect(res.headers['cache-control']).toBe('no-store');
    const location = new URL(res.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(`${issuer.url}/auth`);
    const params = Object.fromEntries(location.searchParams);
    expect(params).toMatchObject({
      response_type: 'code',
      client_id: 'herald',
      scope: 'openid email profile',
      redirect_uri: REDIRECT_URI,
      code_challenge_method: 'S256',
    });
    expect(params.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(params.state).toMatch(/^[\w-]{20,}$/);
    expect(params.nonce).toMatch(/^[\w-]{20,}$/);
    const cookie = cookieOf(res, 'herald_oidc')!;
    expect(cookie).toMatch(/; Path=\/auth\/oidc; HttpOnly; SameSite=Lax; Max-Age=600$/);
    // Sealed: neither the state nor the PKCE verifier can be read from it.
    expect(decodeURIComponent(pairOf(cookie))).not.toContain(params.state);
    expect(decodeURIComponent(pairOf(cookie))).toMatch(/^herald_oidc=v1\./);
  });

  it('signs in the account with the verified address, recording user.signed_in with method sso', async () => {
    const attempt = await sso(t, issuer, 'olivia');
    await signedIn(t, attempt, 'owner@example.com');
    // The browser forgets the attempt.
    expect(cookieOf(attempt.res, 'herald_oidc')).toMatch(/^herald_oidc=; Path=\/auth\/oidc; .*Max-Age=0$/);
    const entries = await auditOf(t, 'user.signed_in');
    const bySso = entries.find((e) => e.changes?.method?.[1] === 'sso');
    expect(bySso).toMatchObject({ actor: { label: 'owner@example.com' } });
    // The account keeps its name: the issuer's is used only for a new account.
    expect((await findUserByEmail(t.ctx.db, 'owner@example.com'))!.name).toBe('Olivia Owner');
  });

  it('makes an account for an address with open invitations, and joins it to their projects', async () => {
    const payload = { email: 'ivy@example.com', role: 'editor' };
    const invite = await owner.call('POST', '/team/invites', { project, payload });
    expect(invite.statusCode).toBe(201);
    issuer.accounts.set('ivy', { email: 'ivy@example.com', email_verified: true, name: 'Ivy Invited' });
    const ivy = await signedIn(t, await sso(t, issuer, 'ivy'), 'ivy@example.com');
    const session = await ivy.call('GET', '/auth/session');
    expect(session.json().data.user.name).toBe('Ivy Invited');
    expect(session.json().data.projects).toEqual([{ id: project, name: 'SSO project', role: 'editor' }]);
    // The invitation is used; the account has no password.
    const open = await owner.call('GET', '/team/invites', { project });
    expect(open.json().data.map((i: { email: string }) => i.email)).not.toContain('ivy@example.com');
    expect((await findUserByEmail(t.ctx.db, 'ivy@example.com'))!.passwordHash).toBeNull();
    const withPassword = { email: 'ivy@example.com', password: PASSWORD };
    const password = await t.app.inject({ method: 'POST', url: '/auth/sign-in', payload: withPassword });
    expectError(password, 401, 'INVALID_CREDENTIALS');
    const accepted = await auditOf(t, 'invite.accepted');
    expect(accepted.length).toBeGreaterThan(0);
  });

  it("names a new account after the email's local part when the issuer gives no name", async () => {
    await owner.call('POST', '/team/invites', { project, payload: { email: 'nameless@example.com', role: 'viewer' } });
    issuer.accounts.set('nameless', { email: 'nameless@example.com', email_verified: true });
    await signedIn(t, await sso(t, issuer, 'nameless'), 'nameless@example.com');
    expect((await findUserByEmail(t.ctx.db, 'nameless@example.com'))!.name).toBe('nameless');
  });

  it('refuses an address with no account and no invitation (403), keeping no account', async () => {
    issuer.accounts.set('stranger', { email: 'stranger@example.com', email_verified: true, name: 'Stranger' });
    const { res } = await sso(t, issuer, 'stranger');
    expectRefusal(res, 403, /stranger@example\.com<\/strong> has no Herald account and no open invitation/);
    expect(await findUserByEmail(t.ctx.db, 'stranger@example.com')).toBeNull();
    const failed = await auditOf(t, 'user.sign_in_failed');
    expect(failed.find((e) => e.actor.label === 'stranger@example.com')?.changes).toEqual({
      method: [null, 'sso'],
      reason: [null, 'no account or invitation'],
    });
  });

  it('refuses an address the issuer has not verified (403), even one with an account', async () => {
    issuer.accounts.set('unverified', { email: 'owner@example.com', email_verified: false });
    const { res } = await sso(t, issuer, 'unverified');
    expectRefusal(res, 403, /has not verified <strong>owner@example\.com<\/strong>/);
    issuer.accounts.set('silent', { email: 'owner@example.com' });
    expectRefusal((await sso(t, issuer, 'silent')).res, 403, /has not verified/);
  });

  it('refuses a sign-in whose issuer gives no email address (403)', async () => {
    issuer.accounts.set('no-email', { name: 'No Email' });
    expectRefusal((await sso(t, issuer, 'no-email')).res, 403, /did not tell Herald your email address/);
  });

  it('refuses a callback with a wrong or missing state, or without its attempt cookie (400)', async () => {
    issuer.signInAs('olivia');
    const start = await t.app.inject({ method: 'GET', url: '/auth/oidc/start' });
    const cookie = pairOf(cookieOf(start, 'herald_oidc'));
    const callback = new URL(await issuer.authorize(start.headers.location as string));
    const state = callback.searchParams.get('state')!;
    const call = (url: string, headers: Record<string, string> = { cookie }) =>
      t.app.inject({ method: 'GET', url, headers });

    callback.searchParams.set('state', `${state.slice(0, -2)}xx`);
    expectRefusal(await call(`${callback.pathname}${callback.search}`), 400, /state does not match/);
    callback.searchParams.delete('state');
    expectRefusal(await call(`${callback.pathname}${callback.search}`), 400, /state does not match/);
    callback.searchParams.set('state', state);
    expectRefusal(await call(`${callback.pathname}${callback.search}`, {}), 400, /has expired/);
    // A cookie sealed under another secret, or changed, is no attempt.
    const changed = `${cookie.slice(0, -4)}AAAA`;
    expectRefusal(await call(`${callback.pathname}${callback.search}`, { cookie: changed }), 400, /has expired/);
    expectRefusal(await call('/auth/oidc/callback', { cookie: 'herald_oidc=junk' }), 400, /has expired/);
    // The untouched callback still works: none of the above used the attempt up.
    const res = await call(`${callback.pathname}${callback.search}`);
    expect(res.statusCode, res.body).toBe(302);
  });

  it('refuses a replayed callback (400): the issuer takes a code once, the browser dropped the attempt', async () => {
    const first = await sso(t, issuer, 'olivia');
    expect(first.res.statusCode).toBe(302);
    // Replayed with the attempt cookie (captured): the issuer refuses the used code.
    const replayed = await t.app.inject({ method: 'GET', url: first.callback, headers: { cookie: first.cookie } });
    expectRefusal(replayed, 400, /could not be completed/);
    // Replayed by the browser, which the callback told to forget the attempt.
    expectRefusal(await t.app.inject({ method: 'GET', url: first.callback }), 400, /has expired/);
  });

  it("shows the issuer's error when the person does not sign in there (400)", async () => {
    const { res } = await sso(t, issuer, null);
    expectRefusal(res, 400, /did not sign you in<\/h1><p>It answered with an error \(<code>access_denied<\/code>\): /);
    expect(res.body).toContain('The person cancelled');
  });

  it('answers 503 with a page while the issuer cannot be reached, and discovers it once it can', async () => {
    const probe = await startTestIssuer();
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const later = await createTestApp({ env: { ...issuer.env, OIDC_ISSUER: `http://127.0.0.1:${port}` } });
    try {
      expectRefusal(await later.app.inject({ method: 'GET', url: '/auth/oidc/start' }), 503, /could not be reached/);
      const up = await startTestIssuer({ port });
      try {
        expect((await later.app.inject({ method: 'GET', url: '/auth/oidc/start' })).statusCode).toBe(302);
      } finally {
        await up.close();
      }
    } finally {
      await later.close();
    }
  });

  describe('with OIDC_AUTO_JOIN', () => {
    let auto: TestApp;

    beforeAll(async () => {
      // A second instance on the same database, told to add addresses of two domains to the project as viewers.
      const shared =
        t.testDb.kind === 'postgres' ? { database: t.testDb } : { database: t.testDb, handle: t.ctx.database };
      const env = {
        ...issuer.env,
        OIDC_AUTO_JOIN: `${project}:viewer`,
        OIDC_ALLOWED_DOMAINS: 'corp.example, Team.Example',
      };
      auto = await createTestApp({ ...shared, env });
    });
    afterAll(() => auto.close());

    it('makes an account for an address of an allowed domain and adds it to the project with the role', async () => {
      issuer.accounts.set('dana', { email: 'dana@corp.example', email_verified: true, name: 'Dana' });
      const dana = await signedIn(auto, await sso(auto, issuer, 'dana'), 'dana@corp.example');
      const projects = (await dana.call('GET', '/auth/session')).json().data.projects;
      expect(projects).toEqual([{ id: project, name: 'SSO project', role: 'viewer' }]);
      issuer.accounts.set('tom', { email: 'tom@team.example', email_verified: true });
      await signedIn(auto, await sso(auto, issuer, 'tom'), 'tom@team.example');
      const added = await auditOf(auto, 'member.added');
      expect(added.some((e) => e.changes?.role?.[1] === 'viewer')).toBe(true);
    });

    it('refuses an address of another domain (403), and one of a subdomain', async () => {
      issuer.accounts.set('eve', { email: 'eve@other.example', email_verified: true });
      expectRefusal((await sso(auto, issuer, 'eve')).res, 403, /eve@other\.example<\/strong> has no Herald account/);
      issuer.accounts.set('sub', { email: 'sub@mail.corp.example', email_verified: true });
      expectRefusal((await sso(auto, issuer, 'sub')).res, 403, /has no Herald account/);
      expect(await findUserByEmail(auto.ctx.db, 'eve@other.example')).toBeNull();
    });

    it("prefers the address's invitations to auto-join", async () => {
      const other = (await t.createProject('Invited project')).id;
      const payload = { email: 'ian@corp.example', role: 'admin' };
      expect((await owner.call('POST', '/team/invites', { project: other, payload })).statusCode).toBe(201);
      issuer.accounts.set('ian', { email: 'ian@corp.example', email_verified: true });
      const ian = await signedIn(auto, await sso(auto, issuer, 'ian'), 'ian@corp.example');
      const projects = (await ian.call('GET', '/auth/session')).json().data.projects;
      expect(projects).toEqual([{ id: other, name: 'Invited project', role: 'admin' }]);
    });
  });
});

describe('single sign-on with claims in the ID token', () => {
  let issuer: TestIssuer;
  let t: TestApp;

  beforeAll(async () => {
    issuer = await startTestIssuer({ conformIdTokenClaims: false });
    t = await createTestApp({ env: issuer.env });
    await firstUser(t, 'admin@corp.example');
  });
  afterAll(async () => {
    await t.close();
    await issuer.close();
  });

  it("signs in by the ID token's email and email_verified", async () => {
    issuer.accounts.set('admin', { email: 'admin@corp.example', email_verified: true });
    await signedIn(t, await sso(t, issuer, 'admin'), 'admin@corp.example');
    issuer.accounts.set('admin-unverified', { email: 'admin@corp.example', email_verified: false });
    expectRefusal((await sso(t, issuer, 'admin-unverified')).res, 403, /has not verified/);
  });

  it('takes xms_edov (the directory verified the domain) only when the token has no email_verified', async () => {
    issuer.accounts.set('entra', { email: 'admin@corp.example', xms_edov: true });
    await signedIn(t, await sso(t, issuer, 'entra'), 'admin@corp.example');
    issuer.accounts.set('entra-unowned', { email: 'admin@corp.example', xms_edov: false });
    expectRefusal((await sso(t, issuer, 'entra-unowned')).res, 403, /has not verified/);
    issuer.accounts.set('entra-both', { email: 'admin@corp.example', email_verified: false, xms_edov: true });
    expectRefusal((await sso(t, issuer, 'entra-both')).res, 403, /has not verified/);
  });
});

describe('single sign-on not set up', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 at both routes, in the error envelope', async () => {
    for (const url of ['/auth/oidc/start', '/auth/oidc/callback?code=x&state=y']) {
      const body = expectError(await t.app.inject({ method: 'GET', url }), 404, 'NOT_FOUND');
      expect(body.message).toBe('Single sign-on is not set up on this instance');
    }
  });
});

describe('OIDC_ONLY', () => {
  let issuer: TestIssuer;
  let t: TestApp;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp({ env: { ...issuer.env, OIDC_ONLY: 'true' } });
  });
  afterAll(async () => {
    await t.close();
    await issuer.close();
  });

  it('turns password sign-in off for everyone but instance admins', async () => {
    const admin = await firstUser(t, 'root@example.com');
    const project = (await t.createProject('Only SSO')).id;
    await invitedMember(t, admin, project, 'member@example.com', 'editor');
    const signInWith = (email: string) =>
      t.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email, password: PASSWORD } });
    const refused = expectError(await signInWith('member@example.com'), 403, 'FORBIDDEN');
    expect(refused.message).toMatch(/sign in with SSO/);
    expect((await signInWith('root@example.com')).statusCode).toBe(200);
    const options = await t.app.inject({ method: 'GET', url: '/auth/options' });
    expect(options.json().data).toMatchObject({ passwordSignIn: false, sso: true });
    // The member signs in with SSO instead.
    issuer.accounts.set('member', { email: 'member@example.com', email_verified: true });
    await signedIn(t, await sso(t, issuer, 'member'), 'member@example.com');
  });
});
