// A contact's topic choices are a change of the contact: PATCH /contacts/{id}/topics and the preference centre's
// form push `contact.updated` to the webhooks, as other contact changes do; a call that changes nothing pushes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnsubscribeToken } from '../../../src/mail/links.ts';
import { APP_SECRET } from '../../support/app.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../support/webhook-receiver.ts';

type Auth = { authorization: string };

describe('topic choices as contact changes', () => {
  let m: MailFixture;
  let hook: WebhookReceiver;
  let auth: Auth;
  let projectId: string;
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    m = await startMailFixture({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    const sender = await m.verifiedDomain('topics.test');
    auth = sender.auth;
    projectId = sender.project.id;
    expect(
      (await api('POST', '/webhooks', { url: hook.url, events: ['contact.created', 'contact.updated'] })).statusCode,
    ).toBe(201);
  });
  afterAll(async () => {
    await m.close();
    await hook.close();
  });

  it(
    'pushes contact.updated for changed choices from the API and the preference ' +
      'centre, and nothing for the same choice again',
    async () => {
      const contact = (await api('POST', '/contacts', { email: 'chooser@dest.test' })).json().data as {
        id: string;
        updatedAt: string;
      };
      const topic = (await api('POST', '/topics', { name: 'Releases', defaultSubscription: 'OPT_IN' })).json().data
        .id as string;

      const chosen = await api('PATCH', `/contacts/${contact.id}/topics`, {
        topics: [{ id: topic, subscribed: true }],
      });
      expect(chosen.statusCode, chosen.body).toBe(200);
      expect(
        (await api('PATCH', `/contacts/${contact.id}/topics`, { topics: [{ id: topic, subscribed: true }] }))
          .statusCode,
      ).toBe(200);
      // The preference centre's form with no topic checked: out of Releases.
      const form = await m.t.app.inject({
        method: 'POST',
        url: `/manage/${createUnsubscribeToken(APP_SECRET, { projectId, contactId: contact.id })}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: 'action=save',
      });
      expect(form.statusCode, form.body).toBe(200);
      // A change of the contact's own data after them, so the count below cannot stop short of a missing push.
      await api('PATCH', `/contacts/${contact.id}`, { data: { plan: 'pro' } });

      const got = await hook.waitFor(
        4,
        20_000,
        (w: ReceivedWebhook) => (w.json.data as { contactId?: string }).contactId === contact.id,
      );
      expect(got.map((w) => w.json.type)).toEqual([
        'contact.created',
        'contact.updated',
        'contact.updated',
        'contact.updated',
      ]);
      expect(got[1]!.json.data).toMatchObject({ contactId: contact.id, email: 'chooser@dest.test', subscribed: true });
      expect(got[3]!.json.data).toMatchObject({ data: { plan: 'pro' } });
      const choices = (await api('GET', `/contacts/${contact.id}/topics`)).json().data;
      expect(choices).toEqual([{ topicId: topic, name: 'Releases', subscribed: false }]);
      expect((await api('GET', `/contacts/${contact.id}`)).json().data.updatedAt).not.toBe(contact.updatedAt);
    },
  );

  it('refuses an unknown topic without recording a change', async () => {
    const contact = (await api('POST', '/contacts', { email: 'typo@dest.test' })).json().data as {
      id: string;
      updatedAt: string;
    };
    const res = await api('PATCH', `/contacts/${contact.id}/topics`, {
      topics: [{ id: '01a00000-0000-7000-8000-000000000000', subscribed: true }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await api('GET', `/contacts/${contact.id}`)).json().data.updatedAt).toBe(contact.updatedAt);
  });
});
