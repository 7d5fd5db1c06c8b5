import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { Resend } from 'resend';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { resendBaseUrl } from '../../support/resend.ts';
import { until } from '../../support/until.ts';

describe('the Resend SDK sending and reading emails', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let resend: Resend;
  let baseUrl: string;

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('resend.test');
    baseUrl = await resendBaseUrl(m.t.app);
    resend = new Resend(sender.project.secretKey, { baseUrl });
  });
  afterAll(() => m.close());

  const arrived = (address: string) =>
    until(() => m.sink.messages.find((msg) => msg.to.includes(address)), `mail to ${address}`);

  it('sends what Resend sends, as given, and reads it back', async () => {
    const sent = await resend.emails.send({
      from: 'Acme <hello@resend.test>',
      to: 'Ann@Dest.test',
      subject: 'Hi {{ name }} & co',
      html: '<p>Price: {{ price }} <b>bold</b></p>',
      replyTo: 'support@resend.test',
      headers: { 'X-Entity-Ref-ID': 'ref-1' },
      attachments: [
        { filename: 'note.txt', content: Buffer.from('hello file').toString('base64'), contentType: 'text/plain' },
      ],
    });
    expect(sent.error).toBeNull();
    const id = sent.data!.id;

    const parsed = await simpleParser((await arrived('ann@dest.test')).raw);
    expect(parsed.from?.value).toEqual([{ address: 'hello@resend.test', name: 'Acme' }]);
    expect(parsed.subject).toBe('Hi {{ name }} & co');
    expect(parsed.html).toContain('<p>Price: {{ price }} <b>bold</b></p>');
    expect(parsed.replyTo?.value[0]?.address).toBe('support@resend.test');
    expect(parsed.headers.get('x-entity-ref-id')).toBe('ref-1');
    expect(parsed.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([['note.txt', 'hello file']]);

    await m.waitForStatus(sender.auth, id, ['SENT']);
    const read = await resend.emails.get(id);
    expect(read.error).toBeNull();
    expect(read.data).toMatchObject({
      object: 'email',
      id,
      from: 'Acme <hello@resend.test>',
      to: ['ann@dest.test'],
      cc: null,
      bcc: null,
      reply_to: ['support@resend.test'],
      subject: 'Hi {{ name }} & co',
      last_event: 'sent',
      scheduled_at: null,
    });
    expect(read.data!.html).toContain('{{ price }}');
    expect(read.data!.message_id).toMatch(/@resend\.test>$/);
  });

  it("lists emails newest first in Resend's list shape, paging with `after`", async () => {
    const ids: string[] = [];
    for (const to of ['l1@dest.test', 'l2@dest.test']) {
      const { data } = await resend.emails.send({
        from: 'hello@resend.test',
        to: [to],
        subject: 'List',
        html: '<p>x</p>',
      });
      ids.push(data!.id);
    }
    const first = await resend.emails.list({ limit: 1 });
    expect(first.data).toMatchObject({ object: 'list', has_more: true });
    expect(first.data!.data.map((e) => e.id)).toEqual([ids[1]]);
    expect(first.data!.data[0]).toMatchObject({ to: ['l2@dest.test'], from: 'hello@resend.test', subject: 'List' });
    expect(['queued', 'sent']).toContain(first.data!.data[0]!.last_event);
    const second = await resend.emails.list({ limit: 1, after: ids[1]! });
    expect(second.data!.data.map((e) => e.id)).toEqual([ids[0]]);
  });

  it('replays the first answer for the same Idempotency-Key and body, and sends once', async () => {
    const email = { from: 'hello@resend.test', to: 'once@dest.test', subject: 'Once', html: '<p>once</p>' };
    const first = await resend.emails.send(email, { idempotencyKey: 'order-42' });
    const again = await resend.emails.send(email, { idempotencyKey: 'order-42' });
    expect(first.error).toBeNull();
    expect(again.data).toEqual(first.data);
    expect(again.headers?.['idempotent-replayed']).toBe('true');
    await m.waitForStatus(sender.auth, first.data!.id, ['SENT']);
    const other = await resend.emails.send({ ...email, subject: 'Twice?' }, { idempotencyKey: 'order-42' });
    expect(other.error).toMatchObject({ statusCode: 409, name: 'invalid_idempotent_request' });
    // A later message shows the queue moved on: still one message to once@.
    await resend.emails.send({ ...email, to: 'after@dest.test' });
    await arrived('after@dest.test');
    expect(m.sink.messages.filter((msg) => msg.to.includes('once@dest.test'))).toHaveLength(1);
  });

  it("answers errors in Resend's shape: wrong key, validation, unverified sender, unknown email", async () => {
    const stranger = new Resend('sk_not_a_real_key_0000000000000000', { baseUrl });
    expect(
      (await stranger.emails.send({ from: 'hello@resend.test', to: 'x@dest.test', subject: 's', html: 'h' })).error,
    ).toMatchObject({ statusCode: 403, name: 'invalid_api_key' });
    const invalid = await resend.emails.send({
      from: 'hello@resend.test',
      to: 'not an address',
      subject: 's',
      html: 'h',
    });
    expect(invalid.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(invalid.error!.message).toContain('to');
    const injected = await resend.emails.send({
      from: 'hello@resend.test',
      to: 'x@dest.test',
      subject: 'a\r\nBcc: evil@dest.test',
      html: 'h',
    });
    expect(injected.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    const unverified = await resend.emails.send({
      from: 'me@elsewhere.test',
      to: 'x@dest.test',
      subject: 's',
      html: 'h',
    });
    expect(unverified.error).toMatchObject({ statusCode: 403, name: 'validation_error' });
    const missing = await resend.emails.get(crypto.randomUUID());
    expect(missing.error).toMatchObject({ statusCode: 404, name: 'not_found' });
    const badAfter = await resend.emails.list({ after: crypto.randomUUID() });
    expect(badAfter.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
  });
});
