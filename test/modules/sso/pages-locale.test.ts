// The pages of a single sign-on that signed nobody in speak the browser's language (Accept-Language), else English.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICIES } from '../../../src/plugins/security-headers.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { startTestIssuer, type TestIssuer } from './issuer.ts';

describe('single sign-on refusal pages in the browser’s language', () => {
  let issuer: TestIssuer;
  let t: TestApp;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp({ env: issuer.env });
  });
  afterAll(async () => {
    await t.close();
    await issuer.close();
  });

  const callback = (query: string, acceptLanguage: string, cookie?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/auth/oidc/callback${query}`,
      headers: { 'accept-language': acceptLanguage, ...(cookie ? { cookie } : {}) },
    });

  it('says in Italian that a sign-in without its attempt has expired', async () => {
    const res = await callback('?state=made-up&code=x', 'it-IT,it;q=0.9');
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/^<!doctype html><html lang="it">/);
    expect(res.body).toContain('<title>Accesso scaduto</title>');
    expect(res.body).toContain('<h1>Questo accesso è scaduto</h1>');
    expect(res.body).toContain('<a href="/auth/oidc/start">Accedi di nuovo con SSO</a>');
    expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICIES.hosted);
  });

  it('puts the issuer’s error, escaped, into the French page', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/auth/oidc/start' });
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    const setCookie = [start.headers['set-cookie']].flat().find((c) => c?.startsWith('herald_oidc='))!;
    const query = `?state=${state}&error=access_denied&error_description=${encodeURIComponent('<b>no</b>')}`;
    const res = await callback(query, 'fr-CA, en;q=0.5', setCookie.split(';')[0]);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('<html lang="fr">');
    expect(res.body).toContain('<h1>Votre fournisseur d’identité ne vous a pas connecté</h1>');
    expect(res.body).toContain(
      '<p>Il a répondu par une erreur (<code>access_denied</code>): &#60;b&#62;no&#60;/b&#62;.</p>',
    );
  });

  it('stays English for a browser whose languages have no catalogue', async () => {
    const res = await callback('?state=made-up&code=x', 'ja, ko;q=0.5');
    expect(res.body).toContain('<html lang="en">');
    expect(res.body).toContain('<h1>This sign-in has expired</h1>');
  });
});
