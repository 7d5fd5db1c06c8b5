// Follow-ups carry what the original promised its audience: its topic (a contact who left the topic gets no
// follow-up either) and, for an A/B test, the winning variant's content and sender, which the rest got.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

describe('follow-ups', () => {
  let m: MailFixture;
  let auth: { authorization: string };
  let topicId: string;
  const contactIds = new Map<string, string>();

  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const statusOf = async (id: string) => (await req('GET', `/campaigns/${id}`)).json().data.status as string;
  const sendAndWait = async (id: string) => {
    expect((await req('POST', `/campaigns/${id}/send`)).statusCode).toBe(202);
    await until(async () => (await statusOf(id)) === 'SENT', `campaign ${id} SENT`, 30_000);
  };
  /** The messages of the group's contacts whose subject is `subject`, parsed. */
  const messagesWith = (subject: string) =>
    Promise.all(m.sink.messages.map((msg) => simpleParser(msg.raw))).then((all) =>
      all.filter((msg) => msg.subject === subject),
    );

  beforeAll(async () => {
    m = await startMailFixture();
    auth = (await m.verifiedDomain('example.test')).auth;
    topicId = (await req('POST', '/topics', { name: 'Newsletter', defaultSubscription: 'OPT_OUT' })).json().data.id;
    for (let i = 0; i < 4; i++) {
      const res = await req('POST', '/contacts', { email: `f${i}@dest.test`, data: { group: 'fu' } });
      contactIds.set(`f${i}`, res.json().data.id);
    }
  });
  afterAll(() => m.close());

  it("keeps the original's topic: a contact who left it is neither counted nor sent the follow-up", async () => {
    const created = await req('POST', '/campaigns', {
      name: 'Letter',
      subject: 'Letter',
      body: '<p>Hi <a href="{{unsubscribeUrl}}">u</a></p>',
      from: 'news@example.test',
      topicId,
      audienceType: 'FILTERED',
      audienceFilter: { field: 'data.group', operator: 'equals', value: 'fu' },
    });
    const id = created.json().data.id as string;
    await sendAndWait(id);
    // f1 leaves the topic after the newsletter: still subscribed to mail in general, but not to this topic.
    const left = await req('PATCH', `/contacts/${contactIds.get('f1')}/topics`, {
      topics: [{ id: topicId, subscribed: false }],
    });
    expect(left.statusCode, left.body).toBe(200);

    const followUp = await req('POST', `/campaigns/${id}/follow-up`, {
      audience: 'nonOpeners',
      subject: 'Letter, again',
    });
    expect(followUp.statusCode, followUp.body).toBe(201);
    expect(followUp.json().data).toMatchObject({ topicId, recipientCount: 3 });
    await sendAndWait(followUp.json().data.id);
    const again = await messagesWith('Letter, again');
    expect(again.map((msg) => (msg.to as { text: string }).text).sort()).toEqual([
      'f0@dest.test',
      'f2@dest.test',
      'f3@dest.test',
    ]);
  });

  it("to an A/B test, carries the winning variant's subject, body and sender (or the subject given)", async () => {
    const base = {
      name: 'Launch',
      subject: 'Base subject',
      body: '<p>Base body</p><a href="{{unsubscribeUrl}}">u</a>',
      from: 'news@example.test',
      audienceType: 'FILTERED',
      audienceFilter: { field: 'data.group', operator: 'equals', value: 'fu' },
    };
    const created = await req('POST', '/campaigns', {
      ...base,
      variants: [
        { subject: 'Subject A' },
        {
          subject: 'Subject B',
          body: '<p>Body of B</p><a href="{{unsubscribeUrl}}">u</a>',
          from: 'offers@example.test',
          fromName: 'B team',
        },
      ],
      abTest: { testPercent: 50, metric: 'opens', waitFor: '1d' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    expect((await req('POST', `/campaigns/${id}/send`)).statusCode).toBe(202);
    await until(
      async () => (await req('GET', `/campaigns/${id}`)).json().data.testEndsAt !== null,
      'the test share queued',
    );
    expect((await req('POST', `/campaigns/${id}/winner`, { variantId: 'B' })).statusCode).toBe(200);
    await until(async () => (await statusOf(id)) === 'SENT', 'SENT', 30_000);

    const followUp = await req('POST', `/campaigns/${id}/follow-up`, { audience: 'nonClickers' });
    expect(followUp.statusCode, followUp.body).toBe(201);
    expect(followUp.json().data).toMatchObject({
      subject: 'Subject B',
      body: '<p>Body of B</p><a href="{{unsubscribeUrl}}">u</a>',
      from: 'offers@example.test',
      fromName: 'B team',
      variants: null,
      abTest: null,
    });
    const given = await req('POST', `/campaigns/${id}/follow-up`, { audience: 'nonOpeners', subject: 'Still there?' });
    expect(given.json().data).toMatchObject({
      subject: 'Still there?',
      body: '<p>Body of B</p><a href="{{unsubscribeUrl}}">u</a>',
      from: 'offers@example.test',
    });

    // A test not decided yet has no winner: its follow-up carries the campaign's own content.
    const undecided = await req('POST', '/campaigns', {
      ...base,
      name: 'Undecided',
      variants: [{ subject: 'X' }, { subject: 'Y' }],
      abTest: { testPercent: 50, metric: 'opens', waitFor: '1d' },
    });
    expect(undecided.statusCode, undecided.body).toBe(201);
    const plain = await req('POST', `/campaigns/${undecided.json().data.id}/follow-up`, { audience: 'nonOpeners' });
    expect(plain.json().data).toMatchObject({ subject: 'Base subject', from: 'news@example.test', fromName: null });
  });
});
