// The request log: every API request of a project, with who made it, its status, duration and both bodies — secrets,
// passwords, keys and attachment contents redacted, bodies cut at 10 KB — filtered and paged, readable by owners,
// admins and full keys only, pruned after RETENTION_LOGS_DAYS, and cleaned of an erased contact's address.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredLogs, flushRequestLog } from '../../../src/modules/logs/index.ts';
import { listLogs } from '../../../src/modules/logs/logs.service.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError } from '../../support/envelope.ts';
import { firstUser, invitedMember, type Person } from '../../support/people.ts';

interface Entry {
  id: string;
  at: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  actor: { type: string; id: string | null; label: string };
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  requestBody: unknown;
  requestBodyCut: boolean;
  requestBytes: number | null;
  responseBody: unknown;
  responseBodyCut: boolean;
}

type Project = Awaited<ReturnType<TestApp['createProject']>>;

describe('request log', () => {
  let t: TestApp;
  let project: Project;
  let other: Project;
  let owner: Person;
  let editor: Person;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Logged');
    other = await t.createProject('Elsewhere');
    owner = await firstUser(t);
    editor = await invitedMember(t, owner, project.id, 'editor@example.com', 'editor');
  });
  afterAll(() => t.close());

  const call = (method: string, url: string, payload?: unknown, auth = project.auth) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...auth, 'user-agent': 'log-test/1.0' },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  /** The log as a full key reads it, once this process's waiting entries are written. */
  const logs = async (query = '', auth = project.auth) => {
    await flushRequestLog(t.ctx);
    const res = await call('GET', `/logs?limit=100${query}`, undefined, auth);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { items: Entry[]; total: number; nextCursor: string | null; hasMore: boolean };
  };
  const entryOf = async (requestId: unknown) => (await logs()).items.find((e) => e.requestId === requestId);

  it("logs a key's request with its status, duration, actor, client and both bodies", async () => {
    const res = await call('POST', '/contacts', { email: 'first@example.com', data: { plan: 'gold' } });
    expect(res.statusCode).toBe(201);
    const entry = await entryOf(res.headers['x-request-id']);
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/contacts',
      status: 201,
      actor: { type: 'key', label: expect.stringMatching(/^Secret key \(sk_/) },
      ip: '127.0.0.1',
      userAgent: 'log-test/1.0',
      requestBody: { email: 'first@example.com', data: { plan: 'gold' } },
      requestBodyCut: false,
      responseBody: { success: true, data: { id: res.json().data.id, email: 'first@example.com' } },
    });
    expect(entry!.durationMs).toBeGreaterThan(0);
    expect(Date.parse(entry!.at)).not.toBeNaN();

    const one = await call('GET', `/logs/${entry!.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toEqual(entry);
  });

  it('logs what fails too, and a signed-in member as the user', async () => {
    const bad = await call('POST', '/contacts', { email: 'not an address' });
    expect(bad.statusCode).toBe(422);
    expect(await entryOf(bad.headers['x-request-id'])).toMatchObject({
      status: 422,
      responseBody: { success: false, error: { code: 'VALIDATION_ERROR' } },
    });

    const read = await owner.call('GET', '/contacts', { project: project.id });
    expect(read.statusCode).toBe(200);
    const entry = await entryOf(read.headers['x-request-id']);
    expect(entry).toMatchObject({ method: 'GET', status: 200, actor: { type: 'user', label: 'owner@example.com' } });
    const mine = await logs(`&userId=${entry!.actor.id}`);
    expect(mine.items.every((e) => e.actor.type === 'user' && e.actor.id === entry!.actor.id)).toBe(true);
    expect(mine.items.map((e) => e.id)).toContain(entry!.id);
  });

  it('never keeps the Authorization header, passwords, keys, signing secrets or attachment contents', async () => {
    const key = await call('POST', '/api-keys', { type: 'secret', name: 'deploy', scope: 'sending' });
    expect(key.statusCode, key.body).toBe(201);
    const webhook = await call('POST', '/webhooks', {
      url: 'https://hooks.example.com/in',
      events: ['contact.created'],
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const transport = await call('POST', '/transports', {
      type: 'smtp',
      name: 'Relay',
      config: { host: 'relay.example', port: 587, username: 'u', password: 'p4ssw0rd-of-the-relay' },
    });
    expect(transport.statusCode, transport.body).toBe(201);
    const content = Buffer.from('the attached secret document').toString('base64');
    const send = await call('POST', '/v1/send', {
      to: 'someone@example.com',
      subject: 'Attached',
      body: '<p>hello</p>',
      attachments: [{ filename: 'doc.txt', content, contentType: 'text/plain' }],
    });

    const all = JSON.stringify(await logs());
    for (const secret of [
      project.secretKey,
      key.json().data.key,
      webhook.json().data.secret ?? webhook.json().data.signingSecret,
      'p4ssw0rd-of-the-relay',
      content,
    ])
      expect(all).not.toContain(secret);

    expect((await entryOf(key.headers['x-request-id']))!.responseBody).toMatchObject({
      data: { id: key.json().data.id, key: '[redacted]' },
    });
    expect((await entryOf(transport.headers['x-request-id']))!.requestBody).toMatchObject({
      config: { username: 'u', password: '[redacted]' },
    });
    expect((await entryOf(send.headers['x-request-id']))!.requestBody).toMatchObject({
      attachments: [{ filename: 'doc.txt', content: '[attachment: 28 bytes]' }],
    });
  });

  it('keeps at most 10 KB of a 10 MB body, marked as cut', async () => {
    const huge = 'x'.repeat(10 * 1024 * 1024);
    const res = await call('POST', '/v1/send', { to: 'someone@example.com', subject: 'Big', body: huge });
    const entry = (await entryOf(res.headers['x-request-id']))!;
    expect(entry).toMatchObject({ requestBodyCut: true, requestBody: { to: 'someone@example.com', subject: 'Big' } });
    expect(entry.requestBytes).toBeGreaterThan(10 * 1024 * 1024);
    const stored = (await t.ctx.db.execute(
      sql`select length(request_body) as n from request_logs where id = ${entry.id}`,
    )) as unknown as { rows: { n: string | number }[] };
    expect(Number(stored.rows[0]!.n)).toBeLessThanOrEqual(10 * 1024);
  });

  it('filters by method, path prefix, status or status class, key and time, and pages to the end', async () => {
    for (let i = 0; i < 5; i++) await call('GET', `/contacts?limit=1&i=${i}`);
    await call('GET', '/contacts/00000000-0000-7000-8000-000000000000');
    const since = new Date(Date.now() - 60_000).toISOString();

    const gets = await logs('&method=get&path=/contacts');
    expect(gets.items.length).toBeGreaterThanOrEqual(6);
    expect(gets.items.every((e) => e.method === 'GET' && e.path.startsWith('/contacts'))).toBe(true);
    const missing = await logs('&status=404&path=/contacts/');
    expect(missing.items.map((e) => e.status)).toEqual([404]);
    const clientErrors = await logs('&status=4xx');
    expect(clientErrors.items.length).toBeGreaterThanOrEqual(2);
    expect(clientErrors.items.every((e) => e.status >= 400 && e.status < 500)).toBe(true);
    const keyId = gets.items[0]!.actor.id!;
    expect((await logs(`&keyId=${keyId}`)).total).toBeGreaterThanOrEqual(6);
    expect((await logs(`&from=${since}&to=${new Date(Date.now() + 1000).toISOString()}`)).total).toBe(
      (await logs()).total,
    );
    expect((await logs(`&to=${since}`)).total).toBe(0);

    const seen: Entry[] = [];
    let cursor: string | null = null;
    do {
      await flushRequestLog(t.ctx);
      const res = await call('GET', `/logs?limit=2&method=GET&path=/contacts${cursor ? `&cursor=${cursor}` : ''}`);
      const page = res.json().data as { items: Entry[]; nextCursor: string | null; total: number };
      expect(page.total).toBe(gets.total);
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.map((e) => e.id)).toEqual(gets.items.map((e) => e.id));
    const times = seen.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('answers 422 for bad filters, 404 for another project’s entry, 403 to editors', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'status=6xx',
      'status=42',
      'method=FETCH',
      'path=contacts',
      'keyId=nope',
      'userId=nope',
      'from=yesterday',
      'cursor=garbage',
    ])
      expectError(await call('GET', `/logs?${query}`), 422, 'VALIDATION_ERROR');

    const ours = (await logs()).items[0]!;
    expectError(await call('GET', `/logs/${ours.id}`, undefined, other.auth), 404, 'NOT_FOUND');
    expectError(await call('GET', '/logs/not-an-id'), 404, 'NOT_FOUND');
    expect((await logs('', other.auth)).items.filter((e) => e.id === ours.id)).toEqual([]);
    expectError(await editor.call('GET', '/logs', { project: project.id }), 403, 'FORBIDDEN');
  });

  it('does not log links in mail, public pages, health or reading the log itself', async () => {
    const before = (await logs()).total;
    await t.app.inject({ method: 'GET', url: '/t/o/x.y' });
    await t.app.inject({ method: 'GET', url: '/healthz' });
    await call('GET', '/logs');
    expect((await logs()).total).toBe(before);
  });

  it('removes an erased contact’s address from every body and path', async () => {
    const created = await call('POST', '/contacts', { email: 'Erase.Me@example.com' });
    expect(created.statusCode).toBe(201);
    await call('GET', '/contacts/erase.me@example.com');
    expect(JSON.stringify(await logs())).toContain('erase.me@example.com');
    const deleted = await call('DELETE', `/contacts/${created.json().data.id}`);
    expect(deleted.statusCode).toBe(200);
    const all = JSON.stringify(await logs());
    expect(all.toLowerCase()).not.toContain('erase.me@example.com');
    expect(all).toContain('[erased]');
  });

  it('deletes entries older than RETENTION_LOGS_DAYS', async () => {
    const res = await call('GET', '/contacts');
    const entry = (await entryOf(res.headers['x-request-id']))!;
    await t.ctx.db.execute(sql`update request_logs set created_at = now() - interval '8 days' where id = ${entry.id}`);
    expect(await deleteExpiredLogs({ db: t.ctx.db, days: t.ctx.config.requestLog.retentionDays })).toBe(1);
    expect(await entryOf(res.headers['x-request-id'])).toBeUndefined();
  });
});

describe('request log of refused requests', () => {
  it('keeps the answer of a request refused before validation, such as a rate limit’s 429', async () => {
    const t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const project = await t.createProject();
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await t.app.inject({ method: 'GET', url: '/contacts', headers: project.auth })).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
      await flushRequestLog(t.ctx);
      const page = await listLogs({ db: t.ctx.db, filter: { projectId: project.id }, limit: 10 });
      expect(page.items.map((e) => e.status)).toEqual([429, 200, 200]);
      expect(page.items[0]!.responseBody).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED' } });
    } finally {
      await t.close();
    }
  });
});

describe('request log switched off', () => {
  it('logs nothing with REQUEST_LOG=false', async () => {
    const t = await createTestApp({ env: { REQUEST_LOG: 'false' } });
    try {
      const project = await t.createProject();
      await t.app.inject({ method: 'GET', url: '/contacts', headers: project.auth });
      await flushRequestLog(t.ctx);
      const res = await t.app.inject({ method: 'GET', url: '/logs', headers: project.auth });
      expect(res.json().data.total).toBe(0);
    } finally {
      await t.close();
    }
  });
});
