import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

type Auth = { authorization: string };

describe('topics', () => {
  let m: MailFixture;
  let auth: Auth;
  let other: Auth;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Auth = auth) =>
    m.t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const ids: Record<string, string> = {};
  let news: string;
  let offers: string;

  beforeAll(async () => {
    m = await startMailFixture({ worker: false });
    auth = (await m.verifiedDomain('topics.test')).auth;
    other = (await m.verifiedDomain('other-topics.test')).auth;
    for (const name of ['ann', 'bob', 'cat'])
      ids[name] = (await call('POST', '/contacts', { email: `${name}@example.test` })).json().data.id;
    const created = await call('POST', '/topics', {
      name: 'Newsletter',
      description: 'Monthly',
      defaultSubscription: 'OPT_OUT',
    });
    expect(created.statusCode, created.body).toBe(201);
    news = created.json().data.id;
    offers = (await call('POST', '/topics', { name: 'Offers', defaultSubscription: 'OPT_IN' })).json().data.id;
  });
  afterAll(() => m.close());

  it('creates, reads, lists, renames and deletes a topic; its default cannot change', async () => {
    const created = await call('POST', '/topics', { name: 'Temp', defaultSubscription: 'OPT_IN' });
    const topic = created.json().data;
    expect(topic).toMatchObject({ name: 'Temp', description: null, defaultSubscription: 'OPT_IN' });
    expect((await call('GET', `/topics/${topic.id}`)).json().data).toEqual(topic);
    expect((await call('GET', '/topics')).json().data.items.map((t: { id: string }) => t.id)).toEqual([
      topic.id,
      offers,
      news,
    ]);
    const renamed = await call('PATCH', `/topics/${topic.id}`, { name: 'Temporary', defaultSubscription: 'OPT_IN' });
    expect(renamed.json().data).toMatchObject({ name: 'Temporary', defaultSubscription: 'OPT_IN' });
    expectError(await call('PATCH', `/topics/${topic.id}`, { defaultSubscription: 'OPT_OUT' }), 409, 'CONFLICT');
    expectError(await call('GET', `/topics/${topic.id}`, undefined, other), 404, 'NOT_FOUND');
    expectValidation(await call('POST', '/topics', { name: 'No default' }), 'defaultSubscription');
    expect((await call('DELETE', `/topics/${topic.id}`)).json().data).toEqual({ id: topic.id, deleted: true });
    expectError(await call('GET', `/topics/${topic.id}`), 404, 'NOT_FOUND');
  });

  it("answers a contact's choices, defaults where it chose nothing, and records new ones", async () => {
    expect((await call('GET', `/contacts/${ids.ann}/topics`)).json().data).toEqual([
      { topicId: news, name: 'Newsletter', subscribed: true },
      { topicId: offers, name: 'Offers', subscribed: false },
    ]);
    const set = await call('PATCH', `/contacts/${ids.ann}/topics`, {
      topics: [
        { id: news, subscribed: false },
        { id: offers, subscribed: true },
      ],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.map((t: { subscribed: boolean }) => t.subscribed)).toEqual([false, true]);
    expectValidation(
      await call('PATCH', `/contacts/${ids.bob}/topics`, { topics: [{ id: crypto.randomUUID(), subscribed: true }] }),
      'topics.0.id',
    );
    expectError(
      await call('PATCH', `/contacts/${ids.bob}/topics`, { topics: [{ id: news, subscribed: true }] }, other),
      404,
      'NOT_FOUND',
    );
  });

  it('filters by topic, and a campaign with topicId counts only the contacts in it', async () => {
    await call('PATCH', `/contacts/${ids.bob}/topics`, { topics: [{ id: offers, subscribed: true }] });
    const members = async (filter: unknown) => {
      const seg = await call('POST', '/segments', { name: 's', filter });
      expect(seg.statusCode, seg.body).toBe(201);
      const items = (await call('GET', `/segments/${seg.json().data.id}/contacts?limit=100`)).json().data.items as {
        email: string;
      }[];
      return items.map((c) => c.email.split('@')[0]).sort();
    };
    expect(await members({ topic: news, operator: 'subscribed' })).toEqual(['bob', 'cat']);
    expect(await members({ topic: news, operator: 'notSubscribed' })).toEqual(['ann']);
    expect(await members({ topic: offers, operator: 'subscribed' })).toEqual(['ann', 'bob']);
    expectValidation(
      await call('POST', '/segments', { name: 's', filter: { topic: 'nope', operator: 'subscribed' } }),
      'filter.topic',
    );
    expectValidation(
      await call('POST', '/segments', { name: 's', filter: { topic: news, operator: 'in' } }),
      'filter.operator',
    );

    const base = {
      name: 'Offers mail',
      subject: 'Hi',
      body: '<p>Hi</p>',
      from: 'news@topics.test',
      audienceType: 'ALL',
    };
    const campaign = await call('POST', '/campaigns', { ...base, topicId: offers });
    expect(campaign.statusCode, campaign.body).toBe(201);
    expect(campaign.json().data).toMatchObject({ topicId: offers, recipientCount: 2 });
    const newsletter = await call('PATCH', `/campaigns/${campaign.json().data.id}`, { topicId: news });
    expect(newsletter.json().data).toMatchObject({ topicId: news, recipientCount: 2 });
    const cleared = await call('PATCH', `/campaigns/${campaign.json().data.id}`, { topicId: null });
    expect(cleared.json().data).toMatchObject({ topicId: null, recipientCount: 3 });
    expectValidation(await call('POST', '/campaigns', { ...base, topicId: crypto.randomUUID() }), 'topicId');
  });

  it('a send with topicId skips recipients out of the topic (SUPPRESSED, reason TOPIC)', async () => {
    const res = await call('POST', '/v1/send', {
      to: ['ann@example.test', 'cat@example.test', 'new@example.test'],
      from: 'news@topics.test',
      subject: 'Hi',
      body: '<p>Hi</p>',
      topicId: offers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const statuses = res.json().data.emails.map((e: { status: string }) => e.status);
    // ann chose in; cat and the new contact made no choice of an OPT_IN topic.
    expect(statuses).toEqual(['QUEUED', 'SUPPRESSED', 'SUPPRESSED']);
    const suppressed = (await call('GET', `/emails/${res.json().data.emails[1].email}`)).json().data;
    expect(suppressed).toMatchObject({ status: 'SUPPRESSED', statusReason: 'TOPIC' });
    expectValidation(
      await call('POST', '/v1/send', {
        to: 'ann@example.test',
        from: 'news@topics.test',
        subject: 'Hi',
        body: '<p>Hi</p>',
        topicId: crypto.randomUUID(),
      }),
      'topicId',
    );
  });

  it(
    'a send with an OPT_OUT topic skips a contact who chose out (SUPPRESSED, reason ' +
      'TOPIC) and sends to one who chose nothing',
    async () => {
      const out = (await call('POST', '/contacts', { email: 'out@optout.test' })).json().data.id as string;
      await call('POST', '/contacts', { email: 'quiet@optout.test' });
      expect(
        (await call('PATCH', `/contacts/${out}/topics`, { topics: [{ id: news, subscribed: false }] })).statusCode,
      ).toBe(200);
      const res = await call('POST', '/v1/send', {
        to: ['out@optout.test', 'quiet@optout.test'],
        from: 'news@topics.test',
        subject: 'Monthly',
        body: '<p>News</p>',
        topicId: news,
      });
      expect(res.statusCode, res.body).toBe(200);
      const [skipped, sent] = res.json().data.emails as { email: string; status: string }[];
      expect([skipped!.status, sent!.status]).toEqual(['SUPPRESSED', 'QUEUED']);
      expect((await call('GET', `/emails/${skipped!.email}`)).json().data).toMatchObject({
        to: 'out@optout.test',
        status: 'SUPPRESSED',
        statusReason: 'TOPIC',
      });
      expect((await call('GET', `/emails/${sent!.email}`)).json().data).toMatchObject({
        to: 'quiet@optout.test',
        status: 'QUEUED',
        statusReason: null,
      });
    },
  );

  it('keeps a topic while an unsent campaign is limited to it; a cancelled campaign lets it go', async () => {
    const topic = (await call('POST', '/topics', { name: 'Launches', defaultSubscription: 'OPT_IN' })).json().data
      .id as string;
    const created = await call('POST', '/campaigns', {
      name: 'Launch',
      subject: 'New',
      body: '<p>New</p>',
      from: 'news@topics.test',
      audienceType: 'ALL',
      topicId: topic,
    });
    expect(created.statusCode, created.body).toBe(201);
    const campaign = created.json().data.id as string;
    const refusal = () => call('DELETE', `/topics/${topic}`);

    const draft = await refusal();
    expectError(draft, 409, 'CONFLICT');
    expect(draft.json().error.message).toContain(campaign);
    expect(draft.json().error.suggestion).toContain('topicId');
    expect(
      (
        await call('POST', `/campaigns/${campaign}/send`, {
          scheduledFor: new Date(Date.now() + 86_400_000).toISOString(),
        })
      ).statusCode,
    ).toBe(202);
    expect((await call('GET', `/campaigns/${campaign}`)).json().data).toMatchObject({
      status: 'SCHEDULED',
      topicId: topic,
      recipientCount: 0,
    });
    expectError(await refusal(), 409, 'CONFLICT');
    // Still there, with the campaign still limited to it.
    expect((await call('GET', `/topics/${topic}`)).statusCode).toBe(200);
    expect((await call('GET', `/campaigns/${campaign}`)).json().data.topicId).toBe(topic);

    expect((await call('POST', `/campaigns/${campaign}/cancel`)).statusCode).toBe(202);
    expect((await refusal()).json().data).toEqual({ id: topic, deleted: true });
    expect((await call('GET', `/campaigns/${campaign}`)).json().data).toMatchObject({
      status: 'CANCELLED',
      topicId: null,
    });
  });

  it(
    "keeps a topic while a segment's filter, an unsent campaign's audience filter or " +
      "a workflow's CONDITION names it, at any depth",
    async () => {
      const topic = (await call('POST', '/topics', { name: 'Digest', defaultSubscription: 'OPT_IN' })).json().data
        .id as string;
      // Under all → not → any, and in upper case: the compiler reads it all the same.
      const deep = {
        all: [
          { field: 'subscribed', operator: 'equals', value: true },
          { not: { any: [{ topic: topic.toUpperCase(), operator: 'subscribed' }] } },
        ],
      };
      const segment = await call('POST', '/segments', { name: 'Not on the digest', filter: deep });
      expect(segment.statusCode, segment.body).toBe(201);
      const campaign = await call('POST', '/campaigns', {
        name: 'Digest teaser',
        subject: 'Hi',
        body: '<p>Hi</p>',
        from: 'news@topics.test',
        audienceType: 'FILTERED',
        audienceFilter: { any: [{ topic, operator: 'notSubscribed' }] },
      });
      expect(campaign.statusCode, campaign.body).toBe(201);
      const workflow = await call('POST', '/workflows', {
        name: 'Digest check',
        trigger: { type: 'MANUAL' },
        steps: [
          { type: 'DELAY', duration: '1h' },
          {
            type: 'CONDITION',
            if: { field: 'subscribed', operator: 'equals', value: true },
            then: [{ type: 'CONDITION', if: { not: { topic, operator: 'notSubscribed' } } }],
          },
        ],
      });
      expect(workflow.statusCode, workflow.body).toBe(201);
      // A topic id in step data is no use of it.
      const other = (await call('POST', '/topics', { name: 'Mentioned', defaultSubscription: 'OPT_IN' })).json().data
        .id as string;
      expect(
        (
          await call('POST', '/workflows', {
            name: 'Data only',
            trigger: { type: 'MANUAL' },
            steps: [{ type: 'UPDATE_CONTACT', data: { topic: other } }],
          })
        ).statusCode,
      ).toBe(201);
      expect((await call('DELETE', `/topics/${other}`)).statusCode).toBe(200);

      // Each use is named in turn, until none is left.
      const bySegment = expectError(await call('DELETE', `/topics/${topic}`), 409, 'CONFLICT');
      expect(bySegment.error.message).toContain(`segment "Not on the digest" (${segment.json().data.id})`);
      expect(bySegment.error.suggestion).toContain('PATCH /segments/{id}');
      expect(
        (
          await call('PATCH', `/segments/${segment.json().data.id}`, {
            filter: { field: 'subscribed', operator: 'equals', value: true },
          })
        ).statusCode,
      ).toBe(200);

      const byCampaign = expectError(await call('DELETE', `/topics/${topic}`), 409, 'CONFLICT');
      expect(byCampaign.error.message).toContain(
        `audience filter of a draft, scheduled or sending campaign (${campaign.json().data.id})`,
      );
      expect(byCampaign.error.suggestion).toContain('audienceFilter');
      expect(
        (
          await call('POST', `/campaigns/${campaign.json().data.id}/send`, {
            scheduledFor: new Date(Date.now() + 86_400_000).toISOString(),
          })
        ).statusCode,
      ).toBe(202);
      expectError(await call('DELETE', `/topics/${topic}`), 409, 'CONFLICT');
      // A cancelled campaign's audience is never resolved again: it keeps nothing.
      expect((await call('POST', `/campaigns/${campaign.json().data.id}/cancel`)).statusCode).toBe(202);

      const byWorkflow = expectError(await call('DELETE', `/topics/${topic}`), 409, 'CONFLICT');
      expect(byWorkflow.error.message).toContain(
        `CONDITION step of workflow "Digest check" (${workflow.json().data.id})`,
      );
      expect(
        (await call('PATCH', `/workflows/${workflow.json().data.id}`, { steps: [{ type: 'EXIT' }] })).statusCode,
      ).toBe(200);
      expect((await call('DELETE', `/topics/${topic}`)).json().data).toEqual({ id: topic, deleted: true });
    },
  );

  it('refuses a filter naming a topic the project does not have (422 naming its path)', async () => {
    const theirs = (await call('POST', '/topics', { name: 'Theirs', defaultSubscription: 'OPT_IN' }, other)).json().data
      .id as string;
    const unknown = crypto.randomUUID();
    const filter = (id: string) => ({
      all: [
        { field: 'subscribed', operator: 'equals', value: true },
        { not: { topic: id, operator: 'notSubscribed' } },
      ],
    });
    const created = expectValidation(
      await call('POST', '/segments', { name: 'Ghost topic', filter: filter(unknown) }),
      'filter.all.1.not.topic',
    );
    expect(created.error.errors).toEqual([
      { field: 'filter.all.1.not.topic', message: 'no topic of this project has this id', code: 'unknown_topic' },
    ]);
    expectValidation(
      await call('POST', '/segments', { name: 'Their topic', filter: filter(theirs) }),
      'filter.all.1.not.topic',
    );
    const segment = (await call('POST', '/segments', { name: 'Real topic', filter: filter(news) })).json().data
      .id as string;
    expectValidation(
      await call('PATCH', `/segments/${segment}`, { filter: filter(unknown) }),
      'filter.all.1.not.topic',
    );
    expect((await call('GET', `/segments/${segment}`)).json().data.filter).toEqual(filter(news));
    // Every saved filter is checked alike: a campaign's audience and a workflow's CONDITION.
    expectValidation(
      await call('POST', '/campaigns', {
        name: 'c',
        subject: 'Hi',
        body: '<p>Hi</p>',
        from: 'news@topics.test',
        audienceType: 'FILTERED',
        audienceFilter: { topic: unknown, operator: 'notSubscribed' },
      }),
      'audienceFilter.topic',
    );
    expectValidation(
      await call('POST', '/workflows', {
        name: 'w',
        trigger: { type: 'MANUAL' },
        steps: [{ type: 'CONDITION', if: { topic: theirs, operator: 'subscribed' } }],
      }),
      'steps.0.if.topic',
    );
  });
});
