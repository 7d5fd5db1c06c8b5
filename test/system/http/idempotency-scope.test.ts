// An Idempotency-Key is scoped to the real path, not the route pattern.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { publishDomainRecords } from '../../support/dns-server.ts';

describe('Idempotency-Key scope at real endpoints', () => {
  let m: MailFixture;
  let auth: { authorization: string };

  beforeAll(async () => {
    m = await startMailFixture({ worker: false });
    auth = (await m.verifiedDomain('scope.test')).auth;
  });
  afterAll(() => m.close());

  const post = (url: string, key: string, payload?: object) =>
    m.t.app.inject({
      method: 'POST',
      url,
      headers: { ...auth, 'idempotency-key': key },
      ...(payload ? { payload } : {}),
    });

  it('verifies domain B with the key already used on domain A', async () => {
    const add = async (domain: string) =>
      (await m.t.app.inject({ method: 'POST', url: '/domains', headers: auth, payload: { domain } })).json().data as {
        id: string;
        records: { type: string; name: string; value: string; values?: string[] }[];
      };
    const a = await add('a.scope-two.test');
    const b = await add('b.scope-two.test');
    publishDomainRecords(m.dns, b.records);
    const first = await post(`/domains/${a.id}/verify`, 'same-key');
    const second = await post(`/domains/${b.id}/verify`, 'same-key');
    expect(first.json().data.id).toBe(a.id);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json().data).toMatchObject({ id: b.id, status: 'VERIFIED' });
    // The same path again is still a replay.
    const again = await post(`/domains/${b.id}/verify`, 'same-key');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.id).toBe(b.id);
  });

  it('sends campaign B with the key already used to send campaign A', async () => {
    const create = async (name: string) =>
      (
        await m.t.app.inject({
          method: 'POST',
          url: '/campaigns',
          headers: auth,
          payload: { name, subject: 's', body: '<p>b</p>', from: 'news@scope.test', audienceType: 'ALL' },
        })
      ).json().data.id as string;
    const a = await create('A');
    const b = await create('B');
    expect((await post(`/campaigns/${a}/send`, 'send-key')).statusCode).toBe(202);
    const second = await post(`/campaigns/${b}/send`, 'send-key');
    expect(second.statusCode).toBe(202);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    const status = (await m.t.app.inject({ method: 'GET', url: `/campaigns/${b}`, headers: auth })).json().data.status;
    expect(['SENDING', 'SENT']).toContain(status);
  });

  it('still refuses the same key and path with another body', async () => {
    const send = (subject: string) =>
      post('/v1/send', 'body-key', { to: 'x@dest.test', from: 'a@scope.test', subject, body: '<p>x</p>' });
    expect((await send('one')).statusCode).toBe(200);
    expect((await send('two')).json().error.code).toBe('IDEMPOTENCY_KEY_MISMATCH');
  });
});
