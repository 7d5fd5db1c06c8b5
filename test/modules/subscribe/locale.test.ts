// The language of a signup: POST /v1/subscribe's `locale`, else the browser's Accept-Language for a contact without
// one; and the confirmation link's pages in the contact's language (else the browser's, else English).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfirmToken } from '../../../src/mail/links.ts';
import { APP_SECRET } from '../../support/app.ts';
import { expectValidation } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

type Auth = { authorization: string };

describe('signup locale', () => {
  let m: MailFixture;
  let sk: Auth;
  let pk: Auth;
  let projectId: string;

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers: Auth = sk) =>
    m.t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const subscribe = (payload: object, headers: Auth, acceptLanguage?: string) =>
    m.t.app.inject({
      method: 'POST',
      url: '/v1/subscribe',
      headers: { ...headers, ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
      payload,
    });
  const contactOf = async (email: string) =>
    (await call('GET', `/contacts?email=${email}`)).json().data.items[0] as
      | { id: string; locale: string | null }
      | undefined;

  beforeAll(async () => {
    m = await startMailFixture();
    const sender = await m.verifiedDomain('locale.test', await m.t.createProject('Acme <News>'));
    sk = sender.auth;
    pk = { authorization: `Bearer ${sender.project.publicKey}` };
    projectId = sender.project.id;
    const template = await call('POST', '/templates', {
      name: 'Confirm',
      subject: 'Confirm your address',
      body: '<p><a href="{{confirmUrl}}">Confirm</a></p>',
      type: 'MARKETING',
      from: 'hello@locale.test',
    });
    const set = await call('PATCH', '/settings', { doubleOptIn: { templateId: template.json().data.id } });
    expect(set.statusCode, set.body).toBe(200);
  });
  afterAll(() => m.close());

  it('a signup form: the locale given, else the best language of Accept-Language, for a new contact', async () => {
    expect((await subscribe({ email: 'browser@reader.test' }, pk, 'de-CH,de;q=0.9,en;q=0.5')).statusCode).toBe(202);
    expect((await contactOf('browser@reader.test'))!.locale).toBe('de-CH');
    expect((await subscribe({ email: 'given@reader.test', locale: 'pt-br' }, pk, 'de')).statusCode).toBe(202);
    expect((await contactOf('given@reader.test'))!.locale).toBe('pt-BR');
    // Nothing the header names is a language: no locale.
    expect((await subscribe({ email: 'vague@reader.test' }, pk, '*, xx-INVALID')).statusCode).toBe(202);
    expect((await contactOf('vague@reader.test'))!.locale).toBeNull();
    expect((await subscribe({ email: 'silent@reader.test' }, pk)).statusCode).toBe(202);
    expect((await contactOf('silent@reader.test'))!.locale).toBeNull();
  });

  it('a public key changes no existing contact, its locale included', async () => {
    await call('POST', '/contacts', { email: 'known@reader.test', subscribed: false, locale: 'it' });
    expect((await subscribe({ email: 'known@reader.test', locale: 'fr' }, pk, 'fr')).statusCode).toBe(202);
    expect((await contactOf('known@reader.test'))!.locale).toBe('it');
  });

  it('a secret key: the locale given replaces the contact’s; Accept-Language only fills a missing one', async () => {
    await call('POST', '/contacts', { email: 'has@reader.test', locale: 'it' });
    await call('POST', '/contacts', { email: 'lacks@reader.test' });
    expect((await subscribe({ email: 'has@reader.test' }, sk, 'fr')).statusCode).toBe(200);
    expect((await contactOf('has@reader.test'))!.locale).toBe('it');
    expect((await subscribe({ email: 'lacks@reader.test' }, sk, 'fr-BE, fr;q=0.8')).statusCode).toBe(200);
    expect((await contactOf('lacks@reader.test'))!.locale).toBe('fr-BE');
    expect((await subscribe({ email: 'has@reader.test', locale: 'es' }, sk, 'fr')).statusCode).toBe(200);
    expect((await contactOf('has@reader.test'))!.locale).toBe('es');
  });

  it('answers a locale that is no language with a 422 on locale', async () => {
    expectValidation(await subscribe({ email: 'bad@reader.test', locale: 'xx-INVALID' }, pk), 'locale');
    expectValidation(await subscribe({ email: 'bad@reader.test', locale: 'xx-INVALID' }, sk), 'locale');
    expect(await contactOf('bad@reader.test')).toBeUndefined();
  });

  it('shows the confirmation pages in the contact’s language, whatever the browser says', async () => {
    const { id } = (
      await call('POST', '/contacts', { email: 'luc@reader.test', subscribed: false, locale: 'fr-CA' })
    ).json().data as { id: string };
    const path = `/confirm/${createConfirmToken(APP_SECRET, { projectId, contactId: id })}`;
    const headers = { accept: 'text/html', 'accept-language': 'de-DE,de;q=0.9' };
    const page = await m.t.app.inject({ method: 'GET', url: path, headers });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="fr">');
    expect(page.body).toContain('<h1>Confirmez votre abonnement</h1>');
    expect(page.body).toContain('Abonner <strong>luc@reader.test</strong> aux e-mails de Acme &#60;News&#62; ?');
    expect(page.body).toContain('<button type="submit">Confirmer</button>');
    expect(page.body).not.toContain('<script');

    const done = await m.t.app.inject({
      method: 'POST',
      url: path,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain('<html lang="fr">');
    expect(done.body).toContain('<h1>Votre abonnement est confirmé</h1>');
  });

  it('speaks the browser’s language on a link that names nobody, English when it has no catalogue for it', async () => {
    const forged = await m.t.app.inject({
      method: 'GET',
      url: '/confirm/not-a-token',
      headers: { accept: 'text/html', 'accept-language': 'es-ES,es;q=0.9' },
    });
    expect(forged.statusCode).toBe(404);
    expect(forged.body).toContain('<html lang="es">');
    expect(forged.body).toContain('<h1>Este enlace no es válido</h1>');
    const english = await m.t.app.inject({
      method: 'GET',
      url: '/confirm/not-a-token',
      headers: { accept: 'text/html', 'accept-language': 'ja' },
    });
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain('<h1>This link is not valid</h1>');
  });
});
