import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

describe('suppression list', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;

  beforeAll(async () => {
    m = await startMailFixture({ worker: false, env: { RETURN_PATH_HOST: 'bounces.herald.test' } });
    sender = await m.verifiedDomain('example.test');
  });
  afterAll(() => m.close());

  it('adds, lists, refuses duplicates, blocks sends and removes addresses per project', async () => {
    const add = await m.t.app.inject({
      method: 'POST',
      url: '/suppressions',
      headers: sender.auth,
      payload: { email: ' Blocked@Dest.test ' },
    });
    expect(add.statusCode).toBe(201);
    expect(add.json().data).toMatchObject({ email: 'blocked@dest.test', reason: 'MANUAL' });
    expect(
      (
        await m.t.app.inject({
          method: 'POST',
          url: '/suppressions',
          headers: sender.auth,
          payload: { email: 'blocked@dest.test' },
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await m.t.app.inject({ method: 'POST', url: '/suppressions', headers: sender.auth, payload: { email: 'nope' } }))
        .statusCode,
    ).toBe(422);
    expect(
      (
        await m.t.app.inject({
          method: 'POST',
          url: '/suppressions',
          headers: sender.auth,
          payload: { email: 'x@dest.test', reason: 'SPAM' },
        })
      ).statusCode,
    ).toBe(422);

    const sent = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: { to: ['blocked@dest.test', 'open@dest.test'], from: 'hello@example.test', subject: 's', body: 'b' },
    });
    expect(sent.json().data.emails.map((e: { status: string }) => e.status)).toEqual(['SUPPRESSED', 'QUEUED']);

    const other = await m.verifiedDomain('other.test');
    expect((await m.t.app.inject({ method: 'GET', url: '/suppressions', headers: other.auth })).json().data.total).toBe(
      0,
    );
    expect(
      (await m.t.app.inject({ method: 'DELETE', url: '/suppressions/blocked@dest.test', headers: other.auth }))
        .statusCode,
    ).toBe(404);

    const list = (
      await m.t.app.inject({ method: 'GET', url: '/suppressions?reason=MANUAL', headers: sender.auth })
    ).json().data;
    expect(list.items.map((s: { email: string }) => s.email)).toEqual(['blocked@dest.test']);
    expect(
      (await m.t.app.inject({ method: 'DELETE', url: '/suppressions/Blocked@dest.test', headers: sender.auth }))
        .statusCode,
    ).toBe(200);
    expect(
      (await m.t.app.inject({ method: 'GET', url: '/suppressions', headers: sender.auth })).json().data.total,
    ).toBe(0);
  });

  it('lists a return-path CNAME among the domain records when RETURN_PATH_HOST is set', async () => {
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/domains',
      headers: sender.auth,
      payload: { domain: 'rp.example.test' },
    });
    const record = res.json().data.records.find((r: { purpose: string }) => r.purpose === 'RETURN_PATH');
    expect(record).toMatchObject({
      type: 'CNAME',
      name: 'bounces.rp.example.test',
      value: 'bounces.herald.test',
      required: false,
    });
  });
});
