import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import type { Resend } from 'resend';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { listeningResend, walkResendList } from '../../support/resend.ts';
import { until } from '../../support/until.ts';

describe('the Resend SDK on contact properties, and contacts made with segments and topics', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let resend: Resend;

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('props.test');
    resend = await listeningResend(m.t.app, sender.project.secretKey);
  });
  afterAll(() => m.close());

  const arrived = (address: string, subject: string) =>
    until(
      () => m.sink.messages.find((msg) => msg.to.includes(address) && msg.raw.toString().includes(subject)),
      `mail to ${address}`,
    );

  it('creates, reads, updates, lists both ways and removes contact properties', async () => {
    const company = await resend.contactProperties.create({ key: 'company', type: 'string', fallbackValue: 'Acme' });
    expect(company.error).toBeNull();
    expect(company.data).toEqual({ object: 'contact_property', id: expect.any(String) });
    const id = company.data!.id;
    expect((await resend.contactProperties.get(id)).data).toEqual({
      object: 'contact_property',
      id,
      key: 'company',
      type: 'string',
      fallbackValue: 'Acme',
      createdAt: expect.any(String),
    });
    expect((await resend.contactProperties.update({ id, fallbackValue: 'your company' })).data).toEqual({
      object: 'contact_property',
      id,
    });
    expect((await resend.contactProperties.get(id)).data?.fallbackValue).toBe('your company');

    const more = [];
    for (const key of ['seats', 'plan', 'region'])
      more.push((await resend.contactProperties.create({ key, type: key === 'seats' ? 'number' : 'string' })).data!.id);
    const { forward, backward } = await walkResendList((page) => resend.contactProperties.list(page));
    expect(forward).toEqual([...more].reverse().concat(id));
    expect(backward).toEqual(forward);
    const listed = await resend.contactProperties.list();
    expect(listed.data!.data.find((p) => p.key === 'seats')).toMatchObject({ type: 'number', fallbackValue: null });

    const removed = await resend.contactProperties.remove(more[2]!);
    expect(removed.data).toEqual({ object: 'contact_property', id: more[2], deleted: true });
    expect((await resend.contactProperties.get(more[2]!)).error).toMatchObject({ statusCode: 404 });
  });

  it('renders the fallback where a contact has no value, in a send and in a broadcast', async () => {
    await resend.contactProperties.create({ key: 'team', type: 'string', fallbackValue: 'friends' });
    await resend.contacts.create({ email: 'with@dest.test', properties: { team: 'Rockets' } });
    await resend.contacts.create({ email: 'without@dest.test' });

    const send = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: {
        from: 'hi@props.test',
        to: ['with@dest.test', 'without@dest.test'],
        subject: 'Team news',
        body: '<p>Hello {{ team }}</p>',
      },
    });
    expect(send.statusCode).toBe(200);
    expect((await simpleParser((await arrived('with@dest.test', 'Team news')).raw)).html).toContain('Hello Rockets');
    expect((await simpleParser((await arrived('without@dest.test', 'Team news')).raw)).html).toContain('Hello friends');

    const segment = (await resend.segments.create({ name: 'Teams' })).data!.id;
    for (const email of ['with@dest.test', 'without@dest.test'])
      await resend.contacts.segments.add({ email, segmentId: segment });
    const broadcast = await resend.broadcasts.create({
      segmentId: segment,
      from: 'hi@props.test',
      subject: 'Team broadcast',
      html: '<p>Go {{{team}}}, {{{FIRST_NAME|reader}}}</p>',
      send: true,
    });
    expect(broadcast.error).toBeNull();
    const withTeam = await simpleParser((await arrived('with@dest.test', 'Team broadcast')).raw);
    expect(withTeam.html).toContain('Go Rockets, reader');
    const withoutTeam = await simpleParser((await arrived('without@dest.test', 'Team broadcast')).raw);
    expect(withoutTeam.html).toContain('Go friends, reader');
  });

  it('creates a contact on lists and with topic choices, and checks property types', async () => {
    const list = (await resend.segments.create({ name: 'Signups' })).data!.id;
    const topic = (await resend.topics.create({ name: 'Tips', defaultSubscription: 'opt_out' })).data!.id;
    await resend.contactProperties.create({ key: 'age', type: 'number' });
    const created = await resend.contacts.create({
      email: 'new@dest.test',
      properties: { age: 30 },
      segments: [{ id: list }],
      topics: [{ id: topic, subscription: 'opt_in' }],
    });
    expect(created.error).toBeNull();
    const id = created.data!.id;
    expect((await resend.contacts.segments.list({ contactId: id })).data!.data.map((s) => s.id)).toEqual([list]);
    const topics = (await resend.contacts.topics.list({ id })).data!.data;
    expect(topics.find((t) => t.id === topic)?.subscription).toBe('opt_in');

    const wrongType = await resend.contacts.create({ email: 'bad@dest.test', properties: { age: 'old' } });
    expect(wrongType.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(wrongType.error!.message).toContain('properties.age');
    const wrongUpdate = await resend.contacts.update({ id, properties: { age: 'thirty' } });
    expect(wrongUpdate.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    const unknownList = await resend.contacts.create({
      email: 'lost@dest.test',
      segments: [{ id: crypto.randomUUID() }],
    });
    expect(unknownList.error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect((await resend.contacts.get({ email: 'lost@dest.test' })).error).toMatchObject({ statusCode: 404 });
  });

  it("answers Resend's errors", async () => {
    const badKey = await resend.contactProperties.create({ key: 'has space', type: 'string' });
    expect(badKey.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    const badFallback = await resend.contactProperties.create({
      key: 'score',
      type: 'number',
      fallbackValue: 'high' as unknown as number,
    });
    expect(badFallback.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    await resend.contactProperties.create({ key: 'city', type: 'string' });
    const twice = await resend.contactProperties.create({ key: 'city', type: 'string' });
    expect(twice.error).toMatchObject({ statusCode: 409, name: 'validation_error' });
    expect((await resend.contactProperties.get(crypto.randomUUID())).error).toMatchObject({
      statusCode: 404,
      name: 'not_found',
    });
  });
});
