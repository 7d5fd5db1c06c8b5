import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resend } from 'resend';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { listeningResend } from '../../support/resend.ts';

describe('the Resend SDK on topics', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;
  let resend: Resend;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Resend topics');
    resend = await listeningResend(t.app, project.secretKey);
  });
  afterAll(() => t.close());

  it('creates, reads, updates, lists and removes topics, with Resend’s defaults mapped onto Herald’s', async () => {
    const news = await resend.topics.create({ name: 'News', description: 'Monthly', defaultSubscription: 'opt_in' });
    expect(news.error).toBeNull();
    const newsId = news.data!.id;
    const beta = await resend.topics.create({ name: 'Beta', defaultSubscription: 'opt_out' });
    const betaId = beta.data!.id;

    // Resend's opt_in (everyone unless they opt out) is Herald's OPT_OUT, and the other way round.
    const herald = await t.app.inject({ method: 'GET', url: `/topics/${newsId}`, headers: project.auth });
    expect(herald.json().data).toMatchObject({ name: 'News', description: 'Monthly', defaultSubscription: 'OPT_OUT' });
    const heraldBeta = await t.app.inject({ method: 'GET', url: `/topics/${betaId}`, headers: project.auth });
    expect(heraldBeta.json().data.defaultSubscription).toBe('OPT_IN');

    expect((await resend.topics.get(newsId)).data).toEqual({
      object: 'topic',
      id: newsId,
      name: 'News',
      description: 'Monthly',
      default_subscription: 'opt_in',
      created_at: expect.any(String),
    });
    expect((await resend.topics.update({ id: newsId, name: 'Newsletter' })).data).toEqual({
      object: 'topic',
      id: newsId,
    });
    expect((await resend.topics.get(newsId)).data).toMatchObject({ name: 'Newsletter', description: 'Monthly' });

    const listed = await resend.topics.list();
    expect(listed.data).toMatchObject({ object: 'list', has_more: false });
    expect(listed.data!.data.map((topic) => [topic.name, topic.default_subscription])).toEqual([
      ['Beta', 'opt_out'],
      ['Newsletter', 'opt_in'],
    ]);

    expect((await resend.topics.remove(betaId)).data).toEqual({ object: 'topic', id: betaId, deleted: true });
    expect((await resend.topics.get(betaId)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it("reads, sets and pages a contact's topic choices", async () => {
    const everyone = (await resend.topics.create({ name: 'Everyone', defaultSubscription: 'opt_in' })).data!.id;
    const chosen = (await resend.topics.create({ name: 'Chosen', defaultSubscription: 'opt_out' })).data!.id;
    const contact = (await resend.contacts.create({ email: 'kim@example.test' })).data!.id;

    const before = await resend.contacts.topics.list({ email: 'kim@example.test' });
    expect(before.error).toBeNull();
    const choices = (list: typeof before) =>
      Object.fromEntries(list.data!.data.map((topic) => [topic.id, topic.subscription]));
    expect(choices(before)).toMatchObject({ [everyone]: 'opt_in', [chosen]: 'opt_out' });
    expect(before.data!.data.find((topic) => topic.id === everyone)).toMatchObject({ name: 'Everyone' });

    const updated = await resend.contacts.topics.update({
      id: contact,
      topics: [
        { id: everyone, subscription: 'opt_out' },
        { id: chosen, subscription: 'opt_in' },
      ],
    });
    expect(updated).toMatchObject({ data: { id: contact }, error: null });
    const after = await resend.contacts.topics.list({ id: contact });
    expect(choices(after)).toMatchObject({ [everyone]: 'opt_out', [chosen]: 'opt_in' });

    // Herald's own view of the same choices.
    const herald = await t.app.inject({ method: 'GET', url: `/contacts/${contact}/topics`, headers: project.auth });
    const subscribed = Object.fromEntries(
      herald.json().data.map((topic: { topicId: string; subscribed: boolean }) => [topic.topicId, topic.subscribed]),
    );
    expect(subscribed).toMatchObject({ [everyone]: false, [chosen]: true });

    // Paged with limit and after.
    const first = await resend.contacts.topics.list({ id: contact, limit: 1 });
    expect(first.data).toMatchObject({ has_more: true });
    const second = await resend.contacts.topics.list({ id: contact, limit: 1, after: first.data!.data[0]!.id });
    expect(second.data!.data).toHaveLength(1);
    expect(second.data!.data[0]!.id).not.toBe(first.data!.data[0]!.id);
  });

  it("answers Resend's errors", async () => {
    const bad = await resend.topics.create({ name: 'X', defaultSubscription: 'sometimes' as 'opt_in' });
    expect(bad).toMatchObject({ data: null, error: { statusCode: 422, name: 'validation_error' } });
    expect(bad.error!.message).toContain('default_subscription');
    expect((await resend.topics.get(crypto.randomUUID())).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    const contact = (await resend.contacts.create({ email: 'lou@example.test' })).data!.id;
    const unknown = await resend.contacts.topics.update({
      id: contact,
      topics: [{ id: crypto.randomUUID(), subscription: 'opt_in' }],
    });
    expect(unknown.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    const nobody = await resend.contacts.topics.list({ email: 'nobody@example.test' });
    expect(nobody.error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });
});
