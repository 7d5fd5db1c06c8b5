// The pages of an unsubscribe link and the preference centre speak the contact's language, else the browser's
// (Accept-Language), else English; `<html lang>` says which. What the project and the contact wrote stays escaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnsubscribeToken } from '../../../src/mail/links.ts';
import { CONTENT_SECURITY_POLICIES } from '../../../src/plugins/security-headers.ts';
import { APP_SECRET, createTestApp, type TestApp } from '../../support/app.ts';

type Auth = { authorization: string };

describe('hosted pages in the reader’s language', () => {
  let t: TestApp;
  let auth: Auth;
  let projectId: string;

  const contactWith = async (email: string, locale?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: auth,
      payload: { email, subscribed: true, ...(locale ? { locale } : {}) },
    });
    expect(res.statusCode, res.body).toBe(201);
    return createUnsubscribeToken(APP_SECRET, { projectId, contactId: res.json().data.id as string });
  };
  const page = (method: 'GET' | 'POST', url: string, acceptLanguage: string) =>
    t.app.inject({
      method,
      url,
      headers: {
        accept: 'text/html',
        'accept-language': acceptLanguage,
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(method === 'POST' ? { payload: 'List-Unsubscribe=One-Click' } : {}),
    });

  beforeAll(async () => {
    t = await createTestApp();
    const project = await t.createProject('Acme <Weekly>');
    auth = project.auth;
    projectId = project.id;
  });
  afterAll(() => t.close());

  it('shows the unsubscribe page in German for a German browser', async () => {
    const token = await contactWith('ohne@example.com');
    const res = await page('GET', `/unsubscribe/${token}`, 'de-DE,de;q=0.9');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^<!doctype html><html lang="de">/);
    expect(res.body).toContain('<title>Von Acme &#60;Weekly&#62; abmelden</title>');
    expect(res.body).toContain('<p class="from">E-Mails von <strong>Acme &#60;Weekly&#62;</strong></p>');
    expect(res.body).toContain(
      '<p>Keine E-Mails mehr von Acme &#60;Weekly&#62; an <strong>ohne@example.com</strong> erhalten?</p>',
    );
    expect(res.body).toContain('<button type="submit">Abmelden</button>');
    expect(res.body).not.toContain('<script');
    expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICIES.hosted);
  });

  it('speaks the contact’s language when the browser asks for another, through unsubscribing and back', async () => {
    const token = await contactWith('marie@example.com', 'fr');
    const shown = await page('GET', `/unsubscribe/${token}`, 'de-DE,de;q=0.9');
    expect(shown.body).toContain('<html lang="fr">');
    expect(shown.body).toContain('<h1>Se désabonner</h1>');
    expect(shown.body).toContain('Ne plus recevoir les e-mails de Acme &#60;Weekly&#62;');

    const out = await page('POST', `/unsubscribe/${token}`, 'de');
    expect(out.statusCode).toBe(200);
    expect(out.body).toContain('<html lang="fr">');
    expect(out.body).toContain('<h1>Votre désabonnement est confirmé</h1>');
    expect(out.body).toContain(`action="${token}/resubscribe"><button type="submit" class="secondary">Se réabonner`);

    const back = await page('POST', `/unsubscribe/${token}/resubscribe`, 'de');
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain('<html lang="fr">');
    expect(back.body).toContain('<h1>Votre abonnement est rétabli</h1>');
  });

  it('reads a regional tag by its language and falls back to English for a language without a catalogue', async () => {
    const brazilian = await page('GET', `/unsubscribe/${await contactWith('ana@example.com', 'pt-BR')}`, 'en');
    expect(brazilian.body).toContain('<html lang="pt">');
    expect(brazilian.body).toContain('<h1>Cancelar inscrição</h1>');

    const token = await contactWith('kenji@example.com', 'ja');
    const english = await page('GET', `/unsubscribe/${token}`, 'ja-JP,ja;q=0.9');
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain('<h1>Unsubscribe</h1>');
    expect(english.body).toContain('Stop receiving emails from Acme &#60;Weekly&#62; at <strong>kenji@example.com');
  });

  it('shows a link that is not valid in the browser’s language', async () => {
    const res = await page('GET', '/unsubscribe/forged', 'nl-BE,nl;q=0.9');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<html lang="nl">');
    expect(res.body).toContain('<h1>Deze link is ongeldig</h1>');
  });

  it('shows the preference centre in the contact’s language, its saved notice too', async () => {
    const topic = await t.app.inject({
      method: 'POST',
      url: '/topics',
      headers: auth,
      payload: { name: 'Product <news>', defaultSubscription: 'OPT_IN' },
    });
    expect(topic.statusCode, topic.body).toBe(201);
    const token = await contactWith('lucia@example.com', 'es-MX');
    const shown = await page('GET', `/manage/${token}`, 'it');
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<html lang="es">');
    expect(shown.body).toContain('<title>Preferencias de correo de Acme &#60;Weekly&#62;</title>');
    expect(shown.body).toContain('<p>Para <strong>lucia@example.com</strong>.</p>');
    expect(shown.body).toContain('<strong>Product &#60;news&#62;</strong>');
    expect(shown.body).toContain('<button type="submit">Guardar preferencias</button>');
    expect(shown.body).toContain('Cancelar la suscripción a todo');

    const saved = await t.app.inject({
      method: 'POST',
      url: `/manage/${token}`,
      headers: { accept: 'text/html', 'accept-language': 'it', 'content-type': 'application/x-www-form-urlencoded' },
      payload: `action=save&topic=${topic.json().data.id as string}`,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).toContain('<p class="from"><strong>Tus preferencias se han guardado.</strong></p>');
  });

  it('shows the preference centre of a contact without a locale in the browser’s language', async () => {
    const shown = await page('GET', `/manage/${await contactWith('paolo@example.com')}`, 'it-IT,it;q=0.9,en;q=0.5');
    expect(shown.body).toContain('<html lang="it">');
    expect(shown.body).toContain('<h1>Preferenze email</h1>');
  });
});
