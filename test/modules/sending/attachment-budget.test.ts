/**
 * Messages with attachments wait for room in the engine's byte budget (SEND_MAX_IN_FLIGHT_ATTACHMENT_MB), so
 * a burst of large attachments is built and handed over a few at a time instead of all at once; a message
 * larger than the whole budget still goes, alone. The SMTP sink answers each message 300 ms after its last
 * byte, so messages handed over together overlap there and the overlap can be counted.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

describe('the attachment byte budget (1 MB)', () => {
  let m: MailFixture;

  beforeAll(async () => {
    m = await startMailFixture({ env: { SEND_MAX_IN_FLIGHT_ATTACHMENT_MB: '1' } });
    m.sink.setReplyDelay(300);
  });
  afterAll(() => m.close());

  it('hands over messages without attachments together (the overlap is visible at the sink)', async () => {
    const sender = await m.verifiedDomain('plain.test');
    m.sink.resetMaxInData();
    const to = ['p1@dest.test', 'p2@dest.test', 'p3@dest.test', 'p4@dest.test'];
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: { to, from: 'hi@plain.test', subject: 's', body: 'b' },
    });
    expect(res.statusCode).toBe(200);
    for (const address of to) await m.sink.waitForRecipient(address, 20_000);
    expect(m.sink.maxInData()).toBeGreaterThan(1);
    await until(async () => m.sink.inData() === 0, 'the sink answered them all');
  });

  it('hands over 600 KB attachments one at a time, and a 1.5 MB one alone, each exactly once and intact', async () => {
    const sender = await m.verifiedDomain('files.test');
    m.sink.resetMaxInData();
    const medium = randomBytes(600 * 1024).toString('base64');
    const large = randomBytes(1536 * 1024).toString('base64');
    const to = ['f1@dest.test', 'f2@dest.test', 'f3@dest.test'];
    const sends = await Promise.all([
      m.t.app.inject({
        method: 'POST',
        url: '/v1/send',
        headers: sender.auth,
        payload: {
          to,
          from: 'hi@files.test',
          subject: 's',
          body: 'b',
          attachments: [{ filename: 'medium.bin', content: medium }],
        },
      }),
      m.t.app.inject({
        method: 'POST',
        url: '/v1/send',
        headers: sender.auth,
        payload: {
          to: 'big@dest.test',
          from: 'hi@files.test',
          subject: 's',
          body: 'b',
          attachments: [{ filename: 'large.bin', content: large }],
        },
      }),
    ]);
    expect(sends.map((r) => r.statusCode)).toEqual([200, 200]);
    const flat = (raw: Buffer) => raw.toString('latin1').replace(/\r\n/g, '');
    for (const address of to) expect(flat((await m.sink.waitForRecipient(address, 30_000)).raw)).toContain(medium);
    expect(flat((await m.sink.waitForRecipient('big@dest.test', 30_000)).raw)).toContain(large);
    expect(m.sink.maxInData()).toBe(1);
    for (const address of [...to, 'big@dest.test']) expect(m.sink.perRecipient.get(address)).toBe(1);
  });
});
