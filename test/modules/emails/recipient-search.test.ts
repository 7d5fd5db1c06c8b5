// Finding mail and people by address: GET /emails?to= (a whole address or its beginning, any case, an
// internationalised domain in either form) and GET /contacts?search= with a domain typed in Unicode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidation } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

describe('recipient search', () => {
  let m: MailFixture;
  let auth: { authorization: string };

  beforeAll(async () => {
    m = await startMailFixture({ env: { MAIL_TRANSPORT: 'outbox' } });
    auth = (await m.verifiedDomain('search.test')).auth;
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: auth,
      payload: {
        to: ['ann@dest.test', 'annabel@dest.test', 'bob@dest.test', 'Jörg@Bücher.example'],
        from: 'news@search.test',
        subject: 'Hi',
        body: '<p>Hi</p>',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(() => m.close());

  const get = (url: string) => m.t.app.inject({ method: 'GET', url, headers: auth });
  const recipients = async (query: string) => {
    const res = await get(`/emails?to=${encodeURIComponent(query)}`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { items: { to: string }[]; total: number };
    expect(data.total).toBe(data.items.length);
    return data.items.map((e) => e.to).sort();
  };

  it('GET /emails?to= matches a whole address or its beginning, in any case', async () => {
    expect(await recipients('ANN@dest.test')).toEqual(['ann@dest.test']);
    expect(await recipients('ann')).toEqual(['ann@dest.test', 'annabel@dest.test']);
    expect(await recipients(' Bob@ ')).toEqual(['bob@dest.test']);
    expect(await recipients('dest.test')).toEqual([]); // a beginning, not any part
    expect(await recipients('%')).toEqual([]);
    expect(await recipients('_nn')).toEqual([]);
  });

  it('GET /emails?to= finds an internationalised domain typed in Unicode or in punycode', async () => {
    expect(await recipients('jörg@bücher.example')).toEqual(['jörg@xn--bcher-kva.example']);
    expect(await recipients('JÖRG@BÜCHER')).toEqual(['jörg@xn--bcher-kva.example']);
    expect(await recipients('jörg@xn--bcher-kva.example')).toEqual(['jörg@xn--bcher-kva.example']);
  });

  it('GET /emails?to= refuses an empty or over-long search with a 422', async () => {
    expectValidation(await get('/emails?to='), 'to');
    expectValidation(await get(`/emails?to=${'a'.repeat(255)}`), 'to');
  });

  it('GET /contacts?search= finds an internationalised domain typed in Unicode', async () => {
    const created = await m.t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: auth,
      payload: { email: 'ann@bücher.example' },
    });
    expect(created.json().data).toMatchObject({
      email: 'ann@xn--bcher-kva.example',
      emailUnicode: 'ann@bücher.example',
    });
    const search = async (text: string) =>
      ((await get(`/contacts?search=${encodeURIComponent(text)}`)).json().data.items as { emailUnicode: string }[])
        .map((c) => c.emailUnicode)
        .sort();
    expect(await search('bücher.example')).toEqual(['ann@bücher.example', 'jörg@bücher.example']);
    expect(await search('ANN@BÜCHER')).toEqual(['ann@bücher.example']);
    expect(await search('xn--bcher')).toEqual(['ann@bücher.example', 'jörg@bücher.example']);
  });
});
