// /transports against real relays: an SMTP sink, relays that check AUTH (and quote refused credentials back), refuse
// connections, greet with 421 or never speak, and an SES look-alike that verifies SigV4 signatures. Secrets are
// written once and then looked for in every answer, in the audit log and in the log lines.
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/db/rows.ts';
import { recordConnectionFailure } from '../../../src/modules/transports/index.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { freePort } from '../../support/child.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { startCheckingRelay, startRawServer, type Relay } from './relays.ts';
import { startSesAccount, type SesAccount } from './ses-account.ts';

type Auth = { authorization: string };
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

const PASSWORD = 'Relay-Pa55word/with:odd@chars';
const NEW_PASSWORD = 'second-relay-password-42';
const WRONG_PASSWORD = 'wrong-password-that-the-relay-echoes';

describe(`/transports (${testDatabaseKind})`, () => {
  let t: TestApp;
  let auth: Auth;
  let sink: SmtpSink;
  let relay: Relay;
  let ses: SesAccount;
  const logs: string[] = [];
  /** Every answer body of the test, to look for secrets in. */
  const answers: string[] = [];

  beforeAll(async () => {
    [sink, relay, ses] = await Promise.all([
      startSmtpSink(),
      startCheckingRelay({ username: 'herald', password: NEW_PASSWORD }),
      startSesAccount(),
    ]);
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString());
        done();
      },
    });
    t = await createTestApp({ logger: pino({ level: 'trace' }, stream) });
    auth = (await t.createProject('Transports')).auth;
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([sink.close(), relay.close(), ses.close()]);
  });

  async function api(method: Method, url: string, payload?: unknown, headers: Auth = auth) {
    const res = await t.app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    answers.push(res.body);
    return res;
  }
  const sinkPort = () => Number(new URL(sink.url).port);
  async function created(body: Record<string, unknown>) {
    const res = await api('POST', '/transports', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; updatedAt: string; [key: string]: unknown };
  }
  const smtp = (name: string, config: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    created({ type: 'smtp', name, config: { host: '127.0.0.1', ...config }, ...extra });
  const test = async (id: string) => {
    const res = await api('POST', `/transports/${id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { ok: boolean; message: string; durationMs: number };
  };

  it('lists the built-in default first, with its non-secret settings and health', async () => {
    const res = await api('GET', '/transports');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ total: 1, hasMore: false, nextCursor: null });
    expect(res.json().data.items).toEqual([
      {
        id: 'default',
        name: 'default',
        type: 'outbox',
        builtIn: true,
        config: {},
        maxPerSecond: null,
        maxConnections: null,
        state: 'HEALTHY',
        since: null,
        lastError: null,
        lastErrorAt: null,
        retryAt: null,
        failovers: 0,
        lastFailoverAt: null,
        createdAt: null,
        updatedAt: null,
      },
    ]);
    expect((await api('GET', '/transports/default')).json().data).toMatchObject({ id: 'default', builtIn: true });
  });

  it('adds SMTP, SES and outbox transports; secrets are write-only', async () => {
    const relayA = await smtp(
      'Relay A',
      { port: sinkPort(), username: 'herald', password: PASSWORD },
      { maxPerSecond: 2.5, maxConnections: 3 },
    );
    expect(relayA).toMatchObject({
      name: 'Relay A',
      type: 'smtp',
      builtIn: false,
      config: { host: '127.0.0.1', port: sinkPort(), username: 'herald', hasPassword: true },
      maxPerSecond: 2.5,
      maxConnections: 3,
      state: 'HEALTHY',
      since: null,
      retryAt: null,
      failovers: 0,
    });
    expect(relayA.config).not.toHaveProperty('password');
    const sesTransport = await created({
      type: 'ses',
      name: 'SES',
      config: {
        region: 'eu-west-1',
        accessKeyId: ses.accessKeyId,
        secretAccessKey: ses.secretAccessKey,
        snsTopicArns: ['arn:aws:sns:eu-west-1:123456789012:herald'],
        endpoint: ses.endpoint,
      },
    });
    expect(sesTransport.config).toEqual({
      region: 'eu-west-1',
      accessKeyId: ses.accessKeyId,
      hasSecretAccessKey: true,
      snsTopicArns: ['arn:aws:sns:eu-west-1:123456789012:herald'],
      endpoint: ses.endpoint,
    });
    const outbox = await created({ type: 'outbox', name: 'Files' });
    expect(outbox).toMatchObject({ type: 'outbox', config: {}, maxPerSecond: null });
    const read = await api('GET', `/transports/${relayA.id}`);
    expect(read.json().data).toEqual(relayA);
    // The secret is sealed at rest: the row holds neither the password nor the secret key.
    const stored = JSON.stringify(rowsOf(await t.ctx.db.execute(sql`SELECT * FROM transports`)));
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain(ses.secretAccessKey);
  });

  it('pages the list: default first on the first page, then the project’s transports, newest first', async () => {
    const first = (await api('GET', '/transports?limit=1')).json().data;
    expect(first.items.map((i: { id: string }) => i.id)).toEqual(['default']);
    expect(first).toMatchObject({ hasMore: true, total: 4 });
    const second = (await api('GET', `/transports?limit=2&cursor=${first.nextCursor}`)).json().data;
    expect(second.items.map((i: { name: string }) => i.name)).toEqual(['Files', 'SES']);
    const third = (await api('GET', `/transports?limit=2&cursor=${second.nextCursor}`)).json().data;
    expect(third.items.map((i: { name: string }) => i.name)).toEqual(['Relay A']);
    expect(third).toMatchObject({ hasMore: false, nextCursor: null, total: 4 });
  });

  it.each([
    ['a host with a space', { type: 'smtp', name: 'x', config: { host: 'exa mple.com', port: 25 } }, 'config.host'],
    ['port 0', { type: 'smtp', name: 'x', config: { host: 'a.example', port: 0 } }, 'config.port'],
    ['port 70000', { type: 'smtp', name: 'x', config: { host: 'a.example', port: 70000 } }, 'config.port'],
    ['a port as text', { type: 'smtp', name: 'x', config: { host: 'a.example', port: '25' } }, 'config.port'],
    ['no host', { type: 'smtp', name: 'x', config: { port: 25 } }, 'config.host'],
    [
      'a misspelt password field',
      { type: 'smtp', name: 'x', config: { host: 'a.example', port: 25, passwd: 'p' } },
      'config',
    ],
    ['an unknown field', { type: 'outbox', name: 'x', colour: 'blue' }, ''],
    ['an unknown type', { type: 'pigeon', name: 'x', config: {} }, 'type'],
    ['maxPerSecond 0', { type: 'outbox', name: 'x', maxPerSecond: 0 }, 'maxPerSecond'],
    ['maxConnections 51', { type: 'outbox', name: 'x', maxConnections: 51 }, 'maxConnections'],
    ['maxConnections 0', { type: 'outbox', name: 'x', maxConnections: 0 }, 'maxConnections'],
    ['a blank name', { type: 'outbox', name: '   ' }, 'name'],
    [
      'a region that is not one',
      { type: 'ses', name: 'x', config: { region: 'mars', accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 's' } },
      'config.region',
    ],
    [
      'SES without its secret key',
      { type: 'ses', name: 'x', config: { region: 'eu-west-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE' } },
      'config.secretAccessKey',
    ],
    [
      'a topic that is not an SNS ARN',
      {
        type: 'ses',
        name: 'x',
        config: { region: 'eu-west-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 's', snsTopicArns: ['t'] },
      },
      'config.snsTopicArns.0',
    ],
    [
      'a password with a line break',
      { type: 'smtp', name: 'x', config: { host: 'a.example', port: 25, password: 'a\r\nQUIT' } },
      'config.password',
    ],
  ])('refuses %s with a 422 naming the field', async (_what, body, field) => {
    const res = await api('POST', '/transports', body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', statusCode: 422 } });
    const fields = (res.json().error.errors as { field: string }[]).map((e) => e.field);
    expect(
      fields.some((f) => f === field || (field === '' && f === 'body')),
      fields.join(),
    ).toBe(true);
  });

  it('keeps names unique in a project (409), on create and on rename', async () => {
    const res = await api('POST', '/transports', { type: 'outbox', name: 'Files' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('"Files"') });
    const other = await created({ type: 'outbox', name: 'Files 2' });
    const rename = await api('PATCH', `/transports/${other.id}`, { name: 'Files' });
    expect(rename.statusCode).toBe(409);
    // Another project may use the name.
    const elsewhere = (await t.createProject('Elsewhere')).auth;
    expect((await api('POST', '/transports', { type: 'outbox', name: 'Files' }, elsewhere)).statusCode).toBe(201);
    expect((await api('DELETE', `/transports/${other.id}`)).statusCode).toBe(200);
  });

  it('tests an SMTP relay: AUTH accepted, or refused with the relay’s reply and without the password', async () => {
    const checked = await smtp('Checked', { port: relay.port, username: 'herald', password: WRONG_PASSWORD });
    const refused = await test(checked.id);
    expect(refused.ok).toBe(false);
    expect(refused.message).toContain('535');
    expect(refused.message).toContain('Authentication failed for herald');
    expect(refused.message).toContain('[redacted]');
    expect(refused.message).not.toContain(WRONG_PASSWORD);
    expect(refused.message).not.toContain(Buffer.from(`\u0000herald\u0000${WRONG_PASSWORD}`).toString('base64'));
    expect(relay.logins.at(-1)).toEqual({ username: 'herald', accepted: false });
    // A given password replaces the stored one (sealed again), and updated_at moves.
    const patched = await api('PATCH', `/transports/${checked.id}`, { config: { password: NEW_PASSWORD } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(Date.parse(patched.json().data.updatedAt)).toBeGreaterThan(Date.parse(checked.updatedAt));
    expect(patched.json().data.config).toEqual({
      host: '127.0.0.1',
      port: relay.port,
      username: 'herald',
      hasPassword: true,
    });
    const accepted = await test(checked.id);
    expect(accepted).toMatchObject({ ok: true, message: expect.stringContaining('AUTH accepted for herald') });
    expect(relay.logins.at(-1)).toEqual({ username: 'herald', accepted: true });
  });

  it('tests relays that refuse the connection, greet with 421, or never answer', { timeout: 40_000 }, async () => {
    const closed = await smtp('Closed', { port: await freePort() });
    const nobody = await test(closed.id);
    expect(nobody.ok).toBe(false);
    expect(nobody.message).toMatch(/ECONNREFUSED/);
    const busy = await startRawServer('421 4.3.2 Too busy, try again later');
    const silent = await startRawServer(null);
    try {
      const greeting = await test((await smtp('Busy', { port: busy.port })).id);
      expect(greeting.ok).toBe(false);
      expect(greeting.message).toContain('421 4.3.2 Too busy');
      const mute = await test((await smtp('Mute', { port: silent.port })).id);
      expect(mute.ok).toBe(false);
      expect(mute.message).toMatch(/No answer within 15 s|Greeting never received|timeout/i);
      expect(mute.durationMs).toBeLessThan(16_000);
    } finally {
      await Promise.all([busy.close(), silent.close()]);
    }
  });

  it('tests SES with GetAccount: wrong credentials are ok:false without the secret key', async () => {
    const config = { region: ses.region, accessKeyId: ses.accessKeyId, endpoint: ses.endpoint };
    const right = await created({
      type: 'ses',
      name: 'SES right',
      config: { ...config, secretAccessKey: ses.secretAccessKey },
    });
    expect(await test(right.id)).toMatchObject({ ok: true, message: expect.stringContaining('GetAccount answered') });
    const wrongKey = 'wrong/Secret+Access/Key0123456789abcdefghij';
    const wrong = await created({ type: 'ses', name: 'SES wrong', config: { ...config, secretAccessKey: wrongKey } });
    const result = await test(wrong.id);
    expect(result.ok).toBe(false);
    expect(result.message).toContain('SignatureDoesNotMatch');
    expect(result.message).not.toContain(wrongKey);
    const unknown = await created({
      type: 'ses',
      name: 'SES unknown key',
      config: { ...config, accessKeyId: 'AKIAUNKNOWNKEY000000', secretAccessKey: wrongKey },
    });
    expect((await test(unknown.id)).message).toContain('UnrecognizedClientException');
    expect(ses.calls.map((c) => c.verified)).toEqual([true, false, false]);
  });

  it('tests the built-in default and outbox transports; an unknown or foreign id is 404', async () => {
    expect(await test('default')).toMatchObject({ ok: true, message: expect.stringContaining('outbox') });
    const files = (await api('GET', '/transports')).json().data.items.find((i: { name: string }) => i.name === 'Files');
    expect(await test(files.id)).toMatchObject({ ok: true });
    const foreign = await api('POST', `/transports/${files.id}/test`, undefined, (await t.createProject('Other')).auth);
    expect(foreign.statusCode).toBe(404);
    expect((await api('POST', '/transports/not-an-id/test')).statusCode).toBe(404);
    expect((await api('GET', `/transports/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });

  it('changes only what a PATCH gives; refuses settings of another type; removes optional ones with null', async () => {
    const relayB = await smtp('Relay B', { port: sinkPort(), username: 'herald', password: PASSWORD, secure: false });
    const res = await api('PATCH', `/transports/${relayB.id}`, { maxPerSecond: 10, config: { port: 2525 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Relay B',
      maxPerSecond: 10,
      config: { host: '127.0.0.1', port: 2525, username: 'herald', secure: false, hasPassword: true },
    });
    const foreign = await api('PATCH', `/transports/${relayB.id}`, { config: { region: 'eu-west-1' } });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.errors[0]).toMatchObject({ field: 'config.region' });
    const required = await api('PATCH', `/transports/${relayB.id}`, { config: { host: null } });
    expect(required.statusCode).toBe(422);
    const cleared = await api('PATCH', `/transports/${relayB.id}`, {
      config: { username: null, password: null },
      maxPerSecond: null,
    });
    expect(cleared.json().data).toMatchObject({ maxPerSecond: null, config: { hasPassword: false } });
    expect(cleared.json().data.config).not.toHaveProperty('username');
    expect((await api('PATCH', `/transports/${relayB.id}`, { type: 'ses' })).statusCode).toBe(422);
    expect((await api('PATCH', `/transports/${relayB.id}`, { maxConnections: 99 })).statusCode).toBe(422);
  });

  it('never changes or deletes the built-in default (409 saying what to do instead)', async () => {
    for (const [method, payload] of [
      ['PATCH', { name: 'mine' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await api(method, '/transports/default', payload);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.suggestion).toContain('MAIL_TRANSPORT');
    }
  });

  it('refuses to delete a routed transport (409 naming where); deletes it and its health once unrouted', async () => {
    const routed = await smtp('Routed', { port: sinkPort() });
    const fallback = await smtp('Fallback', { port: sinkPort() });
    const put = await api('PUT', '/routing', {
      rules: [{ match: { stream: 'marketing' }, transportId: routed.id, fallbackIds: [fallback.id] }],
      defaultTransportId: fallback.id,
    });
    expect(put.statusCode, put.body).toBe(200);
    await recordConnectionFailure(t.ctx.db, fallback.id, 'connect ECONNREFUSED');
    const blocked = await api('DELETE', `/transports/${fallback.id}`);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().error.message).toContain('"Fallback"');
    expect(blocked.json().error.message).toContain('rules[0].fallbackIds, defaultTransportId');
    expect(blocked.json().error.suggestion).toContain('PUT /routing');
    const rule = await api('DELETE', `/transports/${routed.id}`);
    expect(rule.json().error.message).toContain('rules[0].transportId');
    await api('PUT', '/routing', { rules: [], defaultTransportId: 'default' });
    expect((await api('DELETE', `/transports/${fallback.id}`)).json()).toEqual({
      success: true,
      data: { id: fallback.id, deleted: true },
    });
    const health = await t.ctx.db.execute(sql`SELECT key FROM transport_health WHERE key = ${fallback.id}`);
    expect(rowsOf(health)).toEqual([]);
    expect((await api('GET', `/transports/${fallback.id}`)).statusCode).toBe(404);
  });

  it('shows a transport’s health: DOWN with its last error and when it is tried again', async () => {
    const flaky = await smtp('Flaky', { port: sinkPort(), password: PASSWORD });
    for (let i = 0; i < 5; i++) await recordConnectionFailure(t.ctx.db, flaky.id, `535 bad login ${PASSWORD}`);
    const view = (await api('GET', `/transports/${flaky.id}`)).json().data;
    expect(view).toMatchObject({ state: 'DOWN', lastError: '535 bad login [redacted]' });
    expect(Date.parse(view.retryAt)).toBeGreaterThan(Date.now());
    expect(view.since).not.toBeNull();
  });

  it('keeps the transports from read keys and viewers’ reads alike (owners and admins only)', async () => {
    const key = await api('POST', '/api-keys', { name: 'Reader', scope: 'read' });
    const reader = { authorization: `Bearer ${String(key.json().data.key)}` };
    const res = await api('GET', '/transports', undefined, reader);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    expect((await api('GET', '/routing', undefined, reader)).statusCode).toBe(200);
    expect((await api('PUT', '/routing', { rules: [] }, reader)).statusCode).toBe(403);
  });

  it('records changes in the audit log without any secret; no secret in any answer or log line', async () => {
    const log = await api('GET', '/audit-log?action=transport.&limit=100');
    expect(log.statusCode, log.body).toBe(200);
    const entries = log.json().data.items as { action: string; changes: Record<string, unknown> | null }[];
    const actions = new Set(entries.map((e) => e.action));
    for (const action of ['transport.created', 'transport.updated', 'transport.deleted'])
      expect(actions).toContain(action);
    const created = entries.find(
      (e) => e.action === 'transport.created' && JSON.stringify(e.changes).includes('Relay A'),
    );
    expect(created?.changes).toMatchObject({ name: [null, 'Relay A'], password: ['[redacted]', '[redacted]'] });
    const routing = (await api('GET', '/audit-log?action=routing.&limit=100')).json().data.items;
    expect(routing.length).toBeGreaterThanOrEqual(2);
    // The capture sees what the app logs (errors only, by design: no request or body is logged).
    t.ctx.logger.warn('capture probe');
    expect(logs.join('')).toContain('capture probe');
    const everything = [...answers, ...logs].join('\n');
    for (const secret of [PASSWORD, NEW_PASSWORD, WRONG_PASSWORD, ses.secretAccessKey]) {
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain(encodeURIComponent(secret));
    }
  });
});
