import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import type { Resend } from 'resend';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { listeningResend, walkResendList } from '../../support/resend.ts';
import { until } from '../../support/until.ts';

describe('the Resend SDK on broadcasts', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let resend: Resend;
  let segmentId: string;

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('news.test');
    resend = await listeningResend(m.t.app, sender.project.secretKey);
    segmentId = (await resend.segments.create({ name: 'Readers' })).data!.id;
    for (const [email, extra] of [
      ['ann@dest.test', { firstName: 'Ann' }],
      ['bob@dest.test', {}],
      ['cy@dest.test', { unsubscribed: true }],
    ] as const) {
      const id = (await resend.contacts.create({ email, ...extra })).data!.id;
      await resend.contacts.segments.add({ contactId: id, segmentId });
    }
    await resend.contacts.create({ email: 'dan@dest.test', firstName: 'Dan' });
  });
  afterAll(() => m.close());

  const arrived = (address: string) =>
    until(() => m.sink.messages.find((msg) => msg.to.includes(address)), `mail to ${address}`);
  const sentOut = (id: string) =>
    until(async () => (await resend.broadcasts.get(id)).data?.status === 'sent', `broadcast ${id} sent`);

  it('creates, reads and updates a draft, sends it to the subscribed members of its segment only', async () => {
    const created = await resend.broadcasts.create({
      name: 'Launch',
      segmentId,
      from: 'News <news@news.test>',
      subject: 'Draft subject',
      html:
        '<p>Hi {{{FIRST_NAME|there}}}</p><a href="https://example.com/launch">Read</a>' +
        '<a href="{{{RESEND_UNSUBSCRIBE_URL}}}">Unsubscribe</a>',
      previewText: 'Big things',
      replyTo: 'help@news.test',
    });
    expect(created.error).toBeNull();
    const id = created.data!.id;

    const draft = await resend.broadcasts.get(id);
    expect(draft.data).toMatchObject({
      object: 'broadcast',
      id,
      name: 'Launch',
      segment_id: segmentId,
      audience_id: segmentId,
      from: 'News <news@news.test>',
      subject: 'Draft subject',
      reply_to: ['help@news.test'],
      preview_text: 'Big things',
      status: 'draft',
      scheduled_at: null,
      sent_at: null,
      topic_id: null,
    });
    // Resend's variables are kept as Herald's Liquid.
    expect(draft.data!.html).toBe(
      '<p>Hi {{ firstName | default: "there" }}</p><a href="https://example.com/launch">Read</a>' +
        '<a href="{{ unsubscribeUrl }}">Unsubscribe</a>',
    );
    // It is a Herald campaign to the segment.
    const herald = await m.t.app.inject({ method: 'GET', url: `/campaigns/${id}`, headers: sender.auth });
    expect(herald.json().data).toMatchObject({
      status: 'DRAFT',
      audienceType: 'SEGMENT',
      segmentId,
      recipientCount: 2,
    });

    expect((await resend.broadcasts.update(id, { subject: 'Launch day' })).data).toEqual({ id });
    expect((await resend.broadcasts.send(id)).data).toEqual({ id });

    const annRaw = (await arrived('ann@dest.test')).raw.toString();
    const toAnn = await simpleParser(annRaw);
    expect(toAnn.subject).toBe('Launch day');
    expect(toAnn.from?.value).toEqual([{ address: 'news@news.test', name: 'News' }]);
    expect(toAnn.replyTo?.value[0]?.address).toBe('help@news.test');
    expect(toAnn.html).toContain('Hi Ann');
    expect(toAnn.html).toContain('Big things');
    expect(annRaw).toMatch(/^List-Unsubscribe: /m);
    const toBob = await simpleParser((await arrived('bob@dest.test')).raw);
    expect(toBob.html).toContain('Hi there');
    await sentOut(id);
    // Herald's rule: an unsubscribed member gets no broadcast (Resend's own rule too), nor does a non-member.
    const campaign = await m.t.app.inject({ method: 'GET', url: `/campaigns/${id}`, headers: sender.auth });
    expect(campaign.json().data.recipientCount).toBe(2);
    expect(m.sink.messages.filter((msg) => msg.to.some((to) => /^(cy|dan)@/.test(to)))).toEqual([]);

    // A click on its link, through Herald's tracking, is in its clicked links.
    const click = /https:\/\/mail\.herald\.test(\/t\/c\/[^"]+)"/.exec(toAnn.html as string)![1]!;
    expect((await m.t.app.inject({ method: 'GET', url: click })).statusCode).toBe(302);
    const links = await resend.broadcasts.clickedLinks(id);
    expect(links.data).toMatchObject({ object: 'list', has_more: false });
    expect(links.data!.data).toEqual([
      { id: expect.any(String), url: 'https://example.com/launch', clicks: 1, unique_clicks: 1 },
    ]);
    const sent = (await resend.broadcasts.get(id)).data!;
    expect(sent.sent_at).not.toBeNull();
    const again = await resend.broadcasts.send(id);
    expect(again.error).toMatchObject({ statusCode: 409, name: 'validation_error' });
  });

  it('sends on creation to the contacts of a topic only', async () => {
    const topic = (await resend.topics.create({ name: 'Deals', defaultSubscription: 'opt_out' })).data!.id;
    await resend.contacts.topics.update({ email: 'bob@dest.test', topics: [{ id: topic, subscription: 'opt_in' }] });
    const created = await resend.broadcasts.create({
      audienceId: segmentId,
      from: 'news@news.test',
      subject: 'Deals for you',
      text: 'Deals <today>',
      topicId: topic,
      send: true,
    });
    expect(created.error).toBeNull();
    const mail = await until(
      () =>
        m.sink.messages.find((msg) => msg.to.includes('bob@dest.test') && msg.raw.toString().includes('Deals for you')),
      'the deals broadcast',
    );
    const parsed = await simpleParser(mail.raw);
    expect(parsed.text).toContain('Deals <today>');
    await sentOut(created.data!.id);
    const read = (await resend.broadcasts.get(created.data!.id)).data!;
    expect(read).toMatchObject({ name: 'Deals for you', topic_id: topic, status: 'sent' });
    const herald = await m.t.app.inject({ method: 'GET', url: `/campaigns/${read.id}`, headers: sender.auth });
    expect(herald.json().data.recipientCount).toBe(1);
  });

  it('schedules, cancels, duplicates, lists both ways and removes broadcasts', async () => {
    const at = new Date(Date.now() + 24 * 3600_000).toISOString();
    const scheduled = await resend.broadcasts.create({
      segmentId,
      from: 'news@news.test',
      subject: 'Tomorrow',
      html: '<p>Tomorrow</p>',
      send: true,
      scheduledAt: at,
    });
    expect(scheduled.error).toBeNull();
    const id = scheduled.data!.id;
    expect((await resend.broadcasts.get(id)).data).toMatchObject({ status: 'queued', scheduled_at: at });

    expect((await resend.broadcasts.cancel(id)).data).toEqual({ object: 'broadcast', id });
    expect((await resend.broadcasts.get(id)).data).toMatchObject({ status: 'draft', scheduled_at: null });
    const later = new Date(Date.now() + 48 * 3600_000).toISOString();
    expect((await resend.broadcasts.send(id, { scheduledAt: later })).error).toBeNull();
    expect((await resend.broadcasts.get(id)).data).toMatchObject({ status: 'queued', scheduled_at: later });

    const copy = await resend.broadcasts.duplicate(id);
    expect(copy.data).toMatchObject({ object: 'broadcast' });
    expect((await resend.broadcasts.get(copy.data!.id)).data).toMatchObject({
      name: 'Tomorrow (copy)',
      status: 'draft',
      html: '<p>Tomorrow</p>',
    });

    const { forward, backward } = await walkResendList((page) => resend.broadcasts.list(page));
    expect(forward.slice(0, 2)).toEqual([copy.data!.id, id]);
    expect(forward).toHaveLength(4);
    expect(backward).toEqual(forward);

    // A scheduled broadcast is unscheduled, then removed.
    expect((await resend.broadcasts.remove(id)).data).toEqual({ object: 'broadcast', id, deleted: true });
    expect((await resend.broadcasts.get(id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it("answers Resend's errors", async () => {
    const noSegment = await resend.broadcasts.create({
      from: 'news@news.test',
      subject: 'X',
      html: '<p>X</p>',
    } as Parameters<Resend['broadcasts']['create']>[0]);
    expect(noSegment.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(noSegment.error!.message).toContain('segment_id');
    const unknownSegment = await resend.broadcasts.create({
      segmentId: crypto.randomUUID(),
      from: 'news@news.test',
      subject: 'X',
      html: '<p>X</p>',
    });
    expect(unknownSegment.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(unknownSegment.error!.message).toContain('segment_id');
    const draft = (
      await resend.broadcasts.create({ segmentId, from: 'news@news.test', subject: 'X', html: '<p>X</p>' })
    ).data!.id;
    const words = await resend.broadcasts.send(draft, { scheduledAt: 'in 1 hour' });
    expect(words.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(words.error!.message).toContain('scheduled_at');
    const stranger = await resend.broadcasts.create({
      segmentId,
      from: 'news@elsewhere.test',
      subject: 'X',
      html: '<p>X</p>',
    });
    expect(stranger.error).toMatchObject({ statusCode: 403 });
    expect((await resend.broadcasts.get(crypto.randomUUID())).error).toMatchObject({ statusCode: 404 });
    expect((await resend.broadcasts.remove(crypto.randomUUID())).error).toMatchObject({ name: 'not_found' });
  });
});
