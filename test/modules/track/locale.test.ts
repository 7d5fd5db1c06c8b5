// POST /v1/track carries the contact's language with its other fields: set (canonical case), kept when left out,
// cleared by null, a 422 naming the field for a tag that is no language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectValidation } from '../../support/envelope.ts';

type Auth = { authorization: string };

describe('POST /v1/track locale', () => {
  let t: TestApp;
  let secret: Auth;
  let pub: Auth;

  const track = (payload: object, headers: Auth = secret) =>
    t.app.inject({ method: 'POST', url: '/v1/track', headers, payload });
  const localeOf = async (email: string) =>
    (await t.app.inject({ method: 'GET', url: `/contacts?email=${email}`, headers: secret })).json().data.items[0]
      ?.locale as string | null | undefined;

  beforeAll(async () => {
    t = await createTestApp();
    const p = await t.createProject();
    secret = p.auth;
    pub = { authorization: `Bearer ${p.publicKey}` };
  });
  afterAll(() => t.close());

  it('sets the locale of the contact it creates or updates, keeps it when left out, clears it with null', async () => {
    expect((await track({ email: 'ana@example.com', event: 'signup', locale: 'PT-br' })).statusCode).toBe(200);
    expect(await localeOf('ana@example.com')).toBe('pt-BR');
    expect((await track({ email: 'ana@example.com', event: 'login', data: { plan: 'pro' } })).statusCode).toBe(200);
    expect(await localeOf('ana@example.com')).toBe('pt-BR');
    expect((await track({ email: 'ana@example.com', event: 'moved', locale: 'de-AT' })).statusCode).toBe(200);
    expect(await localeOf('ana@example.com')).toBe('de-AT');
    expect((await track({ email: 'ana@example.com', event: 'forgot', locale: null })).statusCode).toBe(200);
    expect(await localeOf('ana@example.com')).toBeNull();
    expect((await track({ email: 'nolocale@example.com', event: 'signup' })).statusCode).toBe(200);
    expect(await localeOf('nolocale@example.com')).toBeNull();
  });

  it('takes the locale with a public key too, like the data it merges', async () => {
    expect((await track({ email: 'pk@example.com', event: 'page', locale: 'nl' }, pub)).statusCode).toBe(200);
    expect(await localeOf('pk@example.com')).toBe('nl');
    expect((await track({ email: 'pk@example.com', event: 'page', locale: 'fr-CA' }, pub)).statusCode).toBe(200);
    expect(await localeOf('pk@example.com')).toBe('fr-CA');
  });

  it('answers a tag that is no language with a 422 on locale, recording nothing', async () => {
    expectValidation(await track({ email: 'bad@example.com', event: 'signup', locale: 'xx-INVALID' }), 'locale');
    expectValidation(await track({ email: 'bad@example.com', event: 'signup', locale: 'de_DE' }, pub), 'locale');
    expect(await localeOf('bad@example.com')).toBeUndefined();
  });
});
