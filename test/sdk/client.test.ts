/**
 * The typed client (sdk/) against a Herald app listening on a real port: calls typed by path, the error envelope
 * typed, and its retries, seen through a proxy in front of Herald that loses answers, answers by itself or drops the
 * connection.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createHeraldClient, type HeraldClient, type HeraldError } from '../../sdk/src/index.ts';
import { startMailFixture, type MailFixture } from '../support/mail.ts';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the typed client', () => {
  let m: MailFixture;
  let proxy: FaultProxy;
  let apiKey: string;
  /** Straight to Herald. */
  let herald: HeraldClient;
  /** Through the proxy; back-off of a millisecond where no Retry-After is given. */
  let client: HeraldClient;
  let n = 0;
  const message = () => ({
    to: `reader${++n}@dest.test`,
    from: 'hello@client.test',
    subject: 'Hi',
    body: '<p>Hello {{ email }}</p>',
  });
  const emailsTo = async (to: string) => {
    const { data } = await herald.GET('/emails', { params: { query: { to } } });
    return data?.data.items ?? [];
  };

  beforeAll(async () => {
    m = await startMailFixture({ worker: false });
    apiKey = (await m.verifiedDomain('client.test')).project.secretKey;
    await m.t.app.listen({ port: 0, host: '127.0.0.1' });
    const heraldUrl = `http://127.0.0.1:${(m.t.app.server.address() as { port: number }).port}`;
    herald = createHeraldClient({ baseUrl: heraldUrl, apiKey });
    proxy = await startFaultProxy(heraldUrl);
    client = createHeraldClient({ baseUrl: proxy.url, apiKey, retryDelayMs: 1 });
  });
  afterAll(async () => {
    await proxy.close();
    await m.close();
  });
  beforeEach(() => {
    proxy.seen.length = 0;
  });

  it('creates a contact and tracks an event, typed by path', async () => {
    const created = await herald.POST('/contacts', { body: { email: 'ada@dest.test', data: { plan: 'pro' } } });
    expect(created.response.status).toBe(201);
    const id = created.data!.data.id;
    const read = await herald.GET('/contacts/{id}', { params: { path: { id } } });
    expect(read.data?.data).toMatchObject({ email: 'ada@dest.test', data: { plan: 'pro' } });
    const tracked = await herald.track({ email: 'ada@dest.test', event: 'signed_up' });
    expect(tracked.response.status, JSON.stringify(tracked.error)).toBeLessThan(300);
    expect(tracked.data?.data.contact).toBe(id);
  });

  it('sends an email that the API then shows', async () => {
    const mail = message();
    const sent = await herald.send(mail);
    expect(sent.error).toBeUndefined();
    const emailId = sent.data!.data.emails[0]!.email;
    const read = await herald.GET('/emails/{id}', { params: { path: { id: emailId } } });
    expect(read.data?.data).toMatchObject({ id: emailId, to: mail.to, subject: 'Hi' });
  });

  it('gives a 422 back as the error envelope, typed', async () => {
    const { data, error, response } = await herald.POST('/contacts', { body: { email: 'not an address' } });
    expectTypeOf(error).toEqualTypeOf<HeraldError | undefined>();
    expect(data).toBeUndefined();
    expect(response.status).toBe(422);
    expect(error?.error.code).toBe('VALIDATION_ERROR');
    expect(error?.error.errors?.map((e) => e.field)).toContain('email');
  });

  it('tries a send again after a 503 with Retry-After, with the same Idempotency-Key, and sends it once', async () => {
    proxy.plan({ lose: 503, headers: { 'Retry-After': '1' } });
    const mail = message();
    const sent = await client.send(mail);
    expect(sent.response.status).toBe(200);
    expect(sent.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(proxy.seen).toHaveLength(2);
    const [first, second] = proxy.seen.map((r) => r.headers['idempotency-key']);
    expect(first).toMatch(UUID);
    expect(second).toBe(first);
    expect(await emailsTo(mail.to)).toHaveLength(1);
  });

  it('tries a send again over a dropped connection, with the same key', async () => {
    proxy.plan({ drop: true });
    const sent = await client.send(message());
    expect(sent.response.status).toBe(200);
    const keys = proxy.seen.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('keeps the caller’s Idempotency-Key: the same send twice is one email', async () => {
    const mail = message();
    const first = await client.send(mail, { idempotencyKey: `order-${n}` });
    const again = await client.send(mail, { idempotencyKey: `order-${n}` });
    expect(again.data?.data.emails[0]?.email).toBe(first.data?.data.emails[0]?.email);
    expect(proxy.seen.map((r) => r.headers['idempotency-key'])).toEqual([`order-${n}`, `order-${n}`]);
    expect(await emailsTo(mail.to)).toHaveLength(1);
  });

  it('gives the Resend-compatible sends a key too', async () => {
    const sent = await client.POST('/resend/emails', {
      body: { from: 'hello@client.test', to: `reader${++n}@dest.test`, subject: 'Hi', html: '<p>Hi</p>' },
    });
    expect(sent.response.status).toBe(200);
    expect(proxy.seen[0]?.headers['idempotency-key']).toMatch(UUID);
  });

  it('waits out a 429 and tries any request again, a POST that is not a send included', async () => {
    proxy.plan({ answer: 429, headers: { 'Retry-After': '0' } });
    const created = await client.POST('/contacts', { body: { email: 'bea@dest.test' } });
    expect(created.response.status).toBe(201);
    expect(proxy.seen.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /contacts', 'POST /contacts']);
  });

  it('does not try a POST that is not a send again after a 500, nor give it a key', async () => {
    proxy.plan({ answer: 500 });
    const { error, response } = await client.POST('/contacts', { body: { email: 'cy@dest.test' } });
    expect(response.status).toBe(500);
    expect(error?.error.code).toBe('INTERNAL_ERROR');
    expect(proxy.seen).toHaveLength(1);
    expect(proxy.seen[0]?.headers['idempotency-key']).toBeUndefined();
    const { data } = await herald.GET('/contacts', { params: { query: { email: 'cy@dest.test' } } });
    expect(data?.data.items).toEqual([]);
  });

  it('does not try a POST that is not a send again over a dropped connection', async () => {
    proxy.plan({ drop: true });
    await expect(client.POST('/contacts', { body: { email: 'dee@dest.test' } })).rejects.toThrow();
    expect(proxy.seen).toHaveLength(1);
  });

  it('tries a GET again on a 5xx, three tries in all, then gives the last answer back', async () => {
    proxy.plan({ answer: 502 }, { answer: 503, headers: { 'Retry-After': '0' } }, { answer: 500 });
    const { error, response } = await client.GET('/contacts');
    expect(response.status).toBe(500);
    expect(error?.error.code).toBe('INTERNAL_ERROR');
    expect(proxy.seen).toHaveLength(3);
  });

  it('returns an answer whose Retry-After is past the cap without waiting', async () => {
    proxy.plan({ answer: 503, headers: { 'Retry-After': '3600' } });
    const { response } = await client.GET('/contacts');
    expect(response.status).toBe(503);
    expect(proxy.seen).toHaveLength(1);
  });
});
