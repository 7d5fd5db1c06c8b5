import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { Resend } from 'resend';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { resendBaseUrl } from '../../support/resend.ts';
import { until } from '../../support/until.ts';

describe('the Resend SDK: several recipients, text, tags, scheduling, batches', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let resend: Resend;

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('more.test');
    resend = new Resend(sender.project.secretKey, { baseUrl: await resendBaseUrl(m.t.app) });
  });
  afterAll(() => m.close());

  const arrived = (address: string) =>
    until(() => m.sink.messages.find((msg) => msg.to.includes(address)), `mail to ${address}`);

  it('sends one message to every to, cc and bcc, with reply_to, text, tags and an inline image', async () => {
    const sent = await resend.emails.send({
      from: 'Acme <hello@more.test>',
      to: ['a@dest.test', 'b@dest.test'],
      cc: 'c@dest.test',
      bcc: ['d@dest.test'],
      replyTo: ['help@more.test', 'sales@more.test'],
      subject: 'Together',
      html: '<p>Hi <img src="cid:logo"></p>',
      text: 'Hi, in plain words',
      tags: [{ name: 'category', value: 'welcome' }],
      attachments: [
        {
          filename: 'logo.png',
          content: Buffer.from('png bytes').toString('base64'),
          contentType: 'image/png',
          contentId: 'logo',
        },
      ],
    });
    expect(sent.error).toBeNull();
    const id = sent.data!.id;

    const message = await arrived('d@dest.test');
    expect([...message.to].sort()).toEqual(['a@dest.test', 'b@dest.test', 'c@dest.test', 'd@dest.test']);
    expect(m.sink.messages.filter((msg) => msg.to.includes('a@dest.test'))).toHaveLength(1);
    const parsed = await simpleParser(message.raw);
    expect((Array.isArray(parsed.to) ? parsed.to : [parsed.to]).flatMap((a) => a!.value.map((v) => v.address))).toEqual(
      ['a@dest.test', 'b@dest.test'],
    );
    expect(parsed.headers.get('cc')).toBeDefined();
    expect(message.raw.toString()).not.toMatch(/^Bcc:/im);
    expect(parsed.replyTo?.value.map((v) => v.address)).toEqual(['help@more.test', 'sales@more.test']);
    expect(parsed.text?.trim()).toBe('Hi, in plain words');
    expect(parsed.attachments[0]).toMatchObject({ cid: 'logo', contentType: 'image/png' });

    await m.waitForStatus(sender.auth, id, ['SENT']);
    const read = await resend.emails.get(id);
    expect(read.data).toMatchObject({
      id,
      to: ['a@dest.test', 'b@dest.test'],
      cc: ['c@dest.test'],
      bcc: ['d@dest.test'],
      reply_to: ['help@more.test', 'sales@more.test'],
      text: 'Hi, in plain words',
      tags: [{ name: 'category', value: 'welcome' }],
      last_event: 'sent',
    });
  });

  it('sends a text-only email with an HTML part that shows the text', async () => {
    const sent = await resend.emails.send({
      from: 'hello@more.test',
      to: 'text@dest.test',
      subject: 'Plain',
      text: 'Line 1\n<Line 2>',
    });
    expect(sent.error).toBeNull();
    const parsed = await simpleParser((await arrived('text@dest.test')).raw);
    expect(parsed.text).toBe('Line 1\n<Line 2>');
    expect(parsed.html).toContain('&lt;Line 2&gt;');
  });

  it('schedules, reschedules and cancels; nothing is sent', async () => {
    const at = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
    const sent = await resend.emails.send({
      from: 'hello@more.test',
      to: 'later@dest.test',
      subject: 'Later',
      html: '<p>later</p>',
      scheduledAt: at,
    });
    expect(sent.error).toBeNull();
    const id = sent.data!.id;
    expect((await resend.emails.get(id)).data).toMatchObject({ last_event: 'scheduled', scheduled_at: at });

    const moved = new Date(Date.now() + 5 * 24 * 3600_000).toISOString();
    expect(await resend.emails.update({ id, scheduledAt: moved })).toMatchObject({
      data: { object: 'email', id },
      error: null,
    });
    expect((await resend.emails.get(id)).data?.scheduled_at).toBe(moved);

    expect(await resend.emails.cancel(id)).toMatchObject({ data: { object: 'email', id }, error: null });
    expect((await resend.emails.get(id)).data?.last_event).toBe('canceled');
    expect((await resend.emails.cancel(id)).error).toMatchObject({ statusCode: 409, name: 'validation_error' });
    expect((await resend.emails.update({ id, scheduledAt: moved })).error).toMatchObject({
      statusCode: 409,
      name: 'validation_error',
    });

    const past = await resend.emails.send({
      from: 'hello@more.test',
      to: 'x@dest.test',
      subject: 's',
      html: 'h',
      scheduledAt: '2020-01-01T00:00:00Z',
    });
    expect(past.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(past.error!.message).toContain('scheduled_at');
    expect(m.sink.messages.some((msg) => msg.to.includes('later@dest.test'))).toBe(false);
  });

  it('sends a batch, one id per email in order, and an invalid one stops them all', async () => {
    const batch = await resend.batch.send([
      { from: 'hello@more.test', to: 'b1@dest.test', subject: 'One', html: '<p>1</p>' },
      { from: 'hello@more.test', to: ['b2@dest.test', 'b3@dest.test'], subject: 'Two', html: '<p>2</p>' },
    ]);
    expect(batch.error).toBeNull();
    expect(batch.data!.data).toHaveLength(2);
    const [one, two] = batch.data!.data;
    expect((await resend.emails.get(two!.id)).data).toMatchObject({
      to: ['b2@dest.test', 'b3@dest.test'],
      subject: 'Two',
    });
    await m.waitForStatus(sender.auth, one!.id, ['SENT']);
    await m.waitForStatus(sender.auth, two!.id, ['SENT']);

    const bad = await resend.batch.send([
      { from: 'hello@more.test', to: 'never1@dest.test', subject: 'Ok', html: '<p>ok</p>' },
      { from: 'hello@more.test', to: 'not an address', subject: 'Bad', html: '<p>bad</p>' },
    ]);
    expect(bad.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(bad.error!.message).toMatch(/^1\.to/);
    const listed = await resend.emails.list({ limit: 100 });
    expect(listed.data!.data.some((e) => e.to.includes('never1@dest.test'))).toBe(false);
  });

  it('replays a batch for the same Idempotency-Key and sends it once', async () => {
    const emails = [{ from: 'hello@more.test', to: 'idem-batch@dest.test', subject: 'Once', html: '<p>once</p>' }];
    const first = await resend.batch.send(emails, { idempotencyKey: 'batch-7' });
    const again = await resend.batch.send(emails, { idempotencyKey: 'batch-7' });
    expect(first.error).toBeNull();
    expect(again.data).toEqual(first.data);
    await m.waitForStatus(sender.auth, first.data!.data[0]!.id, ['SENT']);
    expect(m.sink.messages.filter((msg) => msg.to.includes('idem-batch@dest.test'))).toHaveLength(1);
  });
});
