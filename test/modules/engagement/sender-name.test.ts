/**
 * The pages a recipient reaches from an email (unsubscribe, resubscribe, preference centre, double opt-in
 * confirmation) never show the placeholder name a first start gives a project: its sender domain stands in, or "this
 * sender" when it has none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfirmToken, createUnsubscribeToken } from '../../../src/mail/links.ts';
import { APP_SECRET, createTestApp, type TestApp } from '../../support/app.ts';

describe('the sender a recipient reads on the pages of its links', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;

  beforeAll(async () => {
    t = await createTestApp();
    // Made while mail stays in the outbox: its one verified domain is the local sender, herald.localhost.
    project = await t.createProject('Default');
  });
  afterAll(() => t.close());

  const html = { accept: 'text/html' };
  const form = { ...html, 'content-type': 'application/x-www-form-urlencoded' };
  const contact = async (email: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: project.auth,
        payload: { email, subscribed: false },
      })
    ).json().data.id as string;
  /** Every page of a contact's links, GET and POST, as the recipient sees them. */
  const pages = async (email: string) => {
    const ids = { projectId: project.id, contactId: await contact(email) };
    const unsubscribe = `/unsubscribe/${createUnsubscribeToken(APP_SECRET, ids)}`;
    const manage = `/manage/${createUnsubscribeToken(APP_SECRET, ids)}`;
    const confirm = `/confirm/${createConfirmToken(APP_SECRET, ids)}`;
    const answers = [
      await t.app.inject({ method: 'GET', url: confirm, headers: html }),
      await t.app.inject({ method: 'POST', url: confirm, headers: form, payload: '' }),
      await t.app.inject({ method: 'GET', url: unsubscribe, headers: html }),
      await t.app.inject({ method: 'POST', url: unsubscribe, headers: form, payload: 'List-Unsubscribe=One-Click' }),
      await t.app.inject({ method: 'POST', url: `${unsubscribe}/resubscribe`, headers: form, payload: '' }),
      await t.app.inject({ method: 'GET', url: manage, headers: html }),
    ];
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    return answers.map((res) => res.body);
  };

  it('names the sender domain while the project is still called Default', async () => {
    for (const body of await pages('ann@reader.test')) {
      expect(body).not.toContain('Default');
      expect(body).toContain('herald.localhost');
    }
  });

  it('says "this sender" when the project has no verified domain either', async () => {
    const domains = (await t.app.inject({ method: 'GET', url: '/domains', headers: project.auth })).json().data;
    for (const d of domains.items as { id: string }[])
      expect(
        (await t.app.inject({ method: 'DELETE', url: `/domains/${d.id}`, headers: project.auth })).statusCode,
      ).toBe(200);
    for (const body of await pages('bob@reader.test')) {
      expect(body).not.toContain('Default');
      expect(body).toContain('this sender');
    }
  });

  it('names the project once it has a name of its own', async () => {
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: '/settings',
      headers: project.auth,
      payload: { name: 'Acme Weekly' },
    });
    expect(renamed.statusCode).toBe(200);
    for (const body of await pages('cy@reader.test')) expect(body).toContain('Acme Weekly');
  });
});
