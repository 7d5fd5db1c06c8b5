// /routing: rules checked against the project's transports (422 naming the field for a missing one or a loop), the
// route an email would take (POST /routing/test), with recipients' mailbox providers found from MX records served
// by a real DNS server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordConnectionFailure } from '../../../src/modules/transports/index.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { startDnsServer, type TestDnsServer } from '../../support/dns-server.ts';

type Auth = { authorization: string };

describe(`/routing (${testDatabaseKind})`, () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let auth: Auth;
  let relayA: string;
  let relayB: string;
  let relayC: string;

  beforeAll(async () => {
    dns = await startDnsServer({
      'acme-mail.example': [{ type: 'MX', exchange: 'aspmx.l.google.com', priority: 1 }],
      'corp.example': [{ type: 'MX', exchange: 'corp-example.mail.protection.outlook.com', priority: 0 }],
      'small.example': [{ type: 'MX', exchange: 'mx.small.example', priority: 10 }],
    });
    t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
    auth = (await t.createProject('Routing')).auth;
    const add = async (name: string) => {
      const res = await api('POST', '/transports', {
        type: 'smtp',
        name,
        config: { host: `${name}.example`, port: 587 },
      });
      expect(res.statusCode, res.body).toBe(201);
      return String(res.json().data.id);
    };
    relayA = await add('relay-a');
    relayB = await add('relay-b');
    relayC = await add('relay-c');
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Auth = auth) {
    return t.app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  }
  async function refused(body: unknown) {
    const res = await api('PUT', '/routing', body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', statusCode: 422 } });
    return res.json().error as { message: string; errors: { field: string; message: string; code: string }[] };
  }
  const route = async (payload: Record<string, unknown>) => {
    const res = await api('POST', '/routing/test', payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Record<string, unknown>;
  };

  it('answers no rules and the built-in default while none are stored; every email takes default', async () => {
    expect((await api('GET', '/routing')).json().data).toEqual({ rules: [], defaultTransportId: 'default' });
    expect(await route({ from: 'news@shop.example', to: 'ann@small.example' })).toEqual({
      transportId: 'default',
      transportName: 'default',
      fallbackIds: [],
      rule: null,
      provider: 'other',
      stream: 'transactional',
      states: { default: 'HEALTHY' },
    });
  });

  it('stores rules and the default transport; the first matching rule wins', async () => {
    const body = {
      rules: [
        { match: { stream: 'marketing' }, transportId: relayA, fallbackIds: [relayB] },
        { match: { recipientProvider: 'gmail' }, transportId: relayC },
        { match: { tag: 'kind:receipt', senderDomain: 'Shop.Example' }, transportId: 'default' },
        { match: { recipientDomain: 'corp.example' }, transportId: relayA },
      ],
      defaultTransportId: relayB,
    };
    const res = await api('PUT', '/routing', body);
    expect(res.statusCode, res.body).toBe(200);
    const stored = {
      ...body,
      rules: body.rules.map((r, i) => (i === 2 ? { ...r, match: { ...r.match, senderDomain: 'shop.example' } } : r)),
    };
    expect(res.json().data).toEqual(stored);
    expect((await api('GET', '/routing')).json().data).toEqual(stored);

    const marketing = await route({ from: 'news@shop.example', to: 'ann@acme-mail.example', stream: 'marketing' });
    expect(marketing).toMatchObject({ transportId: relayA, transportName: 'relay-a', fallbackIds: [relayB], rule: 0 });
    expect(marketing.states).toEqual({ [relayA]: 'HEALTHY', [relayB]: 'HEALTHY' });
    expect(await route({ from: 'news@shop.example', to: 'bob@acme-mail.example' })).toMatchObject({
      transportId: relayC,
      rule: 1,
      provider: 'gmail',
      stream: 'transactional',
    });
    const receipt = {
      from: 'billing@shop.example',
      to: 'eve@small.example',
      tags: [{ name: 'kind', value: 'receipt' }],
    };
    expect(await route(receipt)).toMatchObject({ transportId: 'default', rule: 2, provider: 'other' });
    expect(await route({ ...receipt, from: 'billing@other.example' })).toMatchObject({
      transportId: relayB,
      rule: null,
    });
    expect(await route({ from: 'a@shop.example', to: 'it@corp.example' })).toMatchObject({
      transportId: relayA,
      rule: 3,
      provider: 'microsoft',
    });
  });

  it('shows each transport’s state in the route: a DOWN transport with its fallback', async () => {
    for (let i = 0; i < 5; i++) await recordConnectionFailure(t.ctx.db, relayA, 'connect ECONNREFUSED');
    const marketing = await route({ from: 'news@shop.example', to: 'ann@small.example', stream: 'marketing' });
    expect(marketing.states).toEqual({ [relayA]: 'DOWN', [relayB]: 'HEALTHY' });
  });

  it('refuses rules naming a transport that does not exist here, naming the field', async () => {
    const other = await t.createProject('Other');
    const theirs = await api(
      'POST',
      '/transports',
      { type: 'smtp', name: 'theirs', config: { host: 'theirs.example', port: 25 } },
      other.auth,
    );
    const foreign = String(theirs.json().data.id);
    const missing = crypto.randomUUID();
    const error = await refused({
      rules: [
        { match: {}, transportId: missing },
        { match: { stream: 'marketing' }, transportId: relayA, fallbackIds: [relayB, foreign] },
        { match: {}, transportId: 'relay-a' },
      ],
      defaultTransportId: 'nope',
    });
    expect(error.errors.map((e) => e.field)).toEqual([
      'rules.0.transportId',
      'rules.1.fallbackIds.1',
      'rules.2.transportId',
      'defaultTransportId',
    ]);
    expect(error.errors[0]).toMatchObject({ code: 'unknown_transport', message: expect.stringContaining(missing) });
    expect(error.message).toContain('rules.0.transportId');
    // Nothing was stored.
    expect((await api('GET', '/routing')).json().data.defaultTransportId).toBe(relayB);
  });

  it('refuses a rule whose fallbacks loop back to its transport or repeat each other', async () => {
    const own = await refused({ rules: [{ match: {}, transportId: relayA, fallbackIds: [relayB, relayA] }] });
    expect(own.errors).toEqual([
      { field: 'rules.0.fallbackIds.1', message: expect.stringContaining('loop'), code: 'fallback_loop' },
    ]);
    const twice = await refused({
      rules: [{ match: {}, transportId: 'default', fallbackIds: [relayC, relayB, relayC] }],
    });
    expect(twice.errors.map((e) => [e.field, e.code])).toEqual([['rules.0.fallbackIds.2', 'fallback_loop']]);
  });

  it.each([
    ['101 rules', { rules: Array.from({ length: 101 }, () => ({ match: {}, transportId: 'default' })) }, 'rules'],
    [
      '6 fallbacks',
      { rules: [{ match: {}, transportId: 'default', fallbackIds: ['a', 'b', 'c', 'd', 'e', 'f'] }] },
      'rules.0.fallbackIds',
    ],
    [
      'an unknown provider',
      { rules: [{ match: { recipientProvider: 'aol' }, transportId: 'default' }] },
      'rules.0.match.recipientProvider',
    ],
    ['an unknown stream', { rules: [{ match: { stream: 'bulk' }, transportId: 'default' }] }, 'rules.0.match.stream'],
    ['an unknown condition', { rules: [{ match: { country: 'FR' }, transportId: 'default' }] }, 'rules.0.match'],
    [
      'a domain that is not one',
      { rules: [{ match: { senderDomain: 'not a domain' }, transportId: 'default' }] },
      'rules.0.match.senderDomain',
    ],
    ['a tag with spaces', { rules: [{ match: { tag: 'a b' }, transportId: 'default' }] }, 'rules.0.match.tag'],
    ['no transport', { rules: [{ match: {} }] }, 'rules.0.transportId'],
    ['no rules', { defaultTransportId: 'default' }, 'rules'],
  ])('refuses %s with a 422 naming the field', async (_what, body, field) => {
    const error = await refused(body);
    expect(error.errors.map((e) => e.field)).toContain(field);
  });

  it('refuses a routing test with a bad address or stream', async () => {
    for (const payload of [
      { from: 'not an address', to: 'a@small.example' },
      { from: 'a@shop.example', to: 'a@small.example', stream: 'bulk' },
      { from: 'a@shop.example' },
    ]) {
      const res = await api('POST', '/routing/test', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
    }
  });

  it('records each routing change in the audit log, with the rules before and after', async () => {
    await api('PUT', '/routing', { rules: [{ match: { stream: 'marketing' }, transportId: relayC }] });
    const entries = (await api('GET', '/audit-log?action=routing.updated&limit=10')).json().data.items as {
      changes: Record<string, [unknown, unknown]>;
    }[];
    expect(entries[0]!.changes).toEqual({
      rules: [expect.any(Array), [{ match: { stream: 'marketing' }, transportId: relayC }]],
      defaultTransportId: [relayB, 'default'],
    });
  });

  it('keeps a routed transport from being deleted (409), naming the rule', async () => {
    const res = await api('DELETE', `/transports/${relayC}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain('rules[0].transportId');
    expect((await api('DELETE', `/transports/${relayB}`)).statusCode).toBe(200);
  });
});
