/**
 * Every successful change through the API is recorded by the module that makes it, in the transaction that makes
 * it. Each write operation of the OpenAPI document (POST, PUT, PATCH, DELETE) is called with a valid request, as
 * the response tour does; each one that succeeds must have left an entry with its request id, and no entry of that
 * request may have been written outside a transaction.
 *
 * How a module's entry is told from the audit trail's catch-all (which records `<resource>.<verb>` after the fact
 * for a successful change whose request recorded nothing): the catch-all appends its entry on the app's root
 * database handle once the answer is ready, while a module appends its entry on the transaction of its change
 * (`recordAudit(tx, …)`). The test puts a proxy in front of the context's database handle that notes the request
 * of every entry appended on the handle itself, outside any transaction: such an entry is the catch-all's, or a
 * module's written apart from its change — either breaks the rule. A probe route that records nothing (added to
 * the app for this test only) proves the proxy sees the catch-all's entries, so the check cannot pass by going
 * blind. Removing one module's recordAudit call makes the test fail for the operations it served.
 *
 * Not walked: sending, tracking, verifying and subscribing (kept in the email and event logs), the MCP transport
 * (its tools call the routes walked here), links in mail (no key: not audited), reads done with POST (a template
 * preview, a routing test), test sends and connection tests, and the people and admin routes (/auth, /team, /admin:
 * their own tests cover them).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../../src/db/schema/index.ts';
import type { Db } from '../../../src/db/client.ts';
import { currentOrigin } from '../../../src/lib/request-origin.ts';
import { NOT_AUDITED } from '../../../src/plugins/audit-trail.ts';
import { createApiWorld, freshIdFor, type ApiWorld } from '../../support/api-world.ts';
import { bodySchema, plausible } from '../../support/fuzz-corpus.ts';
import { isAdmin, openApiDocument, operationsOf, type OpenApiDocument, type Operation } from '../../support/openapi.ts';

const PROBE = '/audit-coverage-probe';

/** The app of this test has one more route: a change that records nothing itself, left to the catch-all. */
async function registerProbe(app: FastifyInstance): Promise<void> {
  const config = { auth: 'secret', scope: 'full', role: 'editor' } as const;
  app.post(PROBE, { config, schema: { hide: true } }, async () => ({ success: true, data: { id: 'probe' } }));
}

/**
 * Operations that change nothing (a preview, a routing test, a pre-send check, a blocklist lookup) or send or connect
 * (a test send, a transport's connection test): no entry expected.
 */
const NOT_CHANGES = new Set([
  'previewTemplate',
  'testCampaign',
  'testRouting',
  'testTransport',
  'checkCampaign',
  'checkTemplate',
  'checkDomainBlocklists',
]);

/**
 * Operations still left to the catch-all, each with the reason; the test fails when one of them records its change
 * itself (it then leaves this list), as when any other does not.
 */
const RECORDED_AFTER: Record<string, string> = {};

/** Requests that change something, where the one built from the schema would change nothing or be refused. */
const CHANGING: Record<string, { body: unknown; query?: string }> = {
  // The settings module records only what a PATCH changes.
  updateSettings: { body: { timezone: 'Europe/Paris' } },
  // At most 30 days ahead.
  rescheduleEmail: { body: { scheduledAt: new Date(Date.now() + 25 * 86_400_000).toISOString() } },
};

function walked(op: Operation): boolean {
  if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method)) return false;
  if (NOT_AUDITED.has(op.path) || NOT_CHANGES.has(op.operationId ?? '')) return false;
  if (/^\/(auth|team|admin)(\/|$)/.test(op.path)) return false;
  // Links in mail and other routes without a caller to name (no security scheme).
  return Boolean(op.security?.length);
}

/** Values of the `secret` and `key` fields of an answer (a webhook's or the workflows' signing secret, a new key). */
function collectSecrets(body: string, into: Set<string>): void {
  if (!body.startsWith('{')) return;
  JSON.parse(body, (name, value: unknown) => {
    const secret = /^(secret|key|secretKey|publicKey)$/.test(name) && typeof value === 'string' && value.length >= 16;
    if (secret) into.add(value);
    return value;
  });
}

interface Entry {
  action: string;
  resourceType: string;
  resourceId: string | null;
  projectId: string | null;
  requestId: string | null;
  changes: Record<string, [unknown, unknown]> | null;
}

describe('every change through the API is recorded by its module, in its transaction', () => {
  let w: ApiWorld;
  let doc: OpenApiDocument;
  let realDb: Db;
  /** Request ids of entries appended outside any transaction (the catch-all's). */
  const outside = new Set<string>();

  beforeAll(async () => {
    w = await createApiWorld({ register: registerProbe });
    doc = await openApiDocument(w.t.app);
    realDb = w.t.ctx.db;
    w.t.ctx.db = new Proxy(realDb, {
      get(target, prop) {
        if (prop === 'insert') {
          return (table: unknown) => {
            const requestId = currentOrigin().requestId;
            if (table === auditLog && requestId) outside.add(requestId);
            return target.insert(table as typeof auditLog);
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }, 120_000);
  afterAll(async () => {
    if (realDb) w.t.ctx.db = realDb;
    await w?.close();
  });

  const entriesOf = async (requestId: string): Promise<Entry[]> =>
    (await realDb.select().from(auditLog).where(eq(auditLog.requestId, requestId))) as Entry[];

  it("sees the catch-all's entries (the probe route records nothing itself)", async () => {
    const res = await w.t.app.inject({ method: 'POST', url: PROBE, headers: w.project.auth });
    expect(res.statusCode).toBe(200);
    const requestId = String(res.headers['x-request-id']);
    expect((await entriesOf(requestId)).map((e) => e.action)).toEqual(['audit_coverage_probe.created']);
    expect(outside.has(requestId)).toBe(true);
  });

  it('records each successful write operation in the transaction of its change', async () => {
    const operations = operationsOf(doc).filter(walked);
    // Deletions last, cancelling after sending and scheduling.
    const rank = (op: Operation) =>
      op.method === 'DELETE' ? 2 : /^(resendC|c)ancel/.test(op.operationId ?? '') ? 1 : 0;
    const problems: string[] = [];
    const recorded: string[] = [];
    const secrets = new Set<string>();
    for (const op of [...operations].sort((a, b) => rank(a) - rank(b))) {
      expect(isAdmin(op)).toBe(false);
      const valid = CHANGING[op.operationId ?? ''] ?? w.validRequest(op.operationId);
      const { schema } = bodySchema(doc, op);
      const body = valid?.body ?? (schema ? plausible(doc, schema) : undefined);
      const own = op.method === 'DELETE' ? await freshIdFor(w, doc, op) : {};
      const value = (p: string) => encodeURIComponent(own[p] ?? w.pathValue(op.path, p));
      const path = op.path.replace(/\{([^}]+)\}/g, (_, p: string) => value(p));
      const url = valid?.query ? `${path}?${valid.query}` : path;
      const headers = await w.authFor(op.operationId);
      const payload = body === undefined ? {} : { payload: body as Record<string, unknown> };
      const res = await w.t.app.inject({ method: op.method as 'POST', url, headers, ...payload });
      const name = `${op.method} ${op.path} (${op.operationId})`;
      if (res.statusCode >= 300) {
        problems.push(`${name}: a valid request answered ${res.statusCode} ${res.body.slice(0, 200)}`);
        continue;
      }
      collectSecrets(res.body, secrets);
      const requestId = String(res.headers['x-request-id']);
      const entries = await entriesOf(requestId);
      const actions = entries.map((e) => e.action).join(', ');
      const after = Object.hasOwn(RECORDED_AFTER, op.operationId ?? '');
      const byCatchAll = outside.has(requestId);
      if (entries.length === 0) problems.push(`${name}: no audit entry`);
      else if (byCatchAll && !after) problems.push(`${name}: ${actions} recorded after the fact, not with its change`);
      else if (!byCatchAll && after) problems.push(`${name}: records ${actions} itself: take it off RECORDED_AFTER`);
      else recorded.push(`${name} → ${actions}`);
    }
    expect(problems).toEqual([]);
    expect(recorded.length).toBeGreaterThan(60);
    // Keys and signing secrets answered once to their caller are nowhere in the log.
    expect(secrets.size).toBeGreaterThanOrEqual(3);
    const log = JSON.stringify(await realDb.select().from(auditLog));
    expect([...secrets].filter((secret) => log.includes(secret))).toEqual([]);
  }, 120_000);

  /** The one entry a request left (its X-Request-Id), after checking it succeeded. */
  async function entryOf(res: { statusCode: number; body: string; headers: Record<string, unknown> }): Promise<Entry> {
    expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(300);
    const entries = await entriesOf(String(res.headers['x-request-id']));
    expect(entries).toHaveLength(1);
    return entries[0]!;
  }
  const call = (method: 'POST' | 'PATCH' | 'GET' | 'DELETE', url: string, payload?: object) =>
    w.t.app.inject({
      method,
      url,
      headers: w.project.auth,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const redacted = ['[redacted]', '[redacted]'];

  it('names what was done, with the fields changed, and never a secret', async () => {
    // An endpoint's URL by its origin (its path and query often carry a token), its secret never.
    const url = 'https://hooks.example.net/in/T0K3N?token=abc';
    const webhook = await call('POST', '/webhooks', { url, events: ['email.sent'] });
    const secret = String(webhook.json().data.secret);
    expect(await entryOf(webhook)).toMatchObject({
      action: 'webhook.created',
      resourceType: 'webhook',
      resourceId: webhook.json().data.id,
      projectId: w.project.id,
      changes: { url: [null, 'https://hooks.example.net'], events: [null, ['email.sent']], enabled: [null, true] },
    });
    const rotated = await call('POST', `/webhooks/${webhook.json().data.id}/rotate-secret`);
    expect(await entryOf(rotated)).toMatchObject({ action: 'webhook.secret_rotated', changes: { secret: redacted } });
    const signing = await call('POST', '/workflows/signing-secret/rotate');
    expect(await entryOf(signing)).toMatchObject({
      action: 'workflow.signing_secret_rotated',
      resourceType: 'workflow_signing_secret',
      changes: { secret: redacted },
    });
    const log = JSON.stringify(await realDb.select().from(auditLog));
    const secrets = [secret, String(rotated.json().data.secret), String(signing.json().data.secret)];
    for (const value of [...secrets, 'T0K3N', 'token=abc']) expect(log).not.toContain(value);

    // A domain's entry names it, and nothing of its DKIM key.
    const domain = await entryOf(await call('POST', '/domains', { domain: 'audited.world.example' }));
    expect(domain).toMatchObject({ action: 'domain.created', resourceType: 'domain' });
    expect(domain.changes).toEqual({ domain: [null, 'audited.world.example'] });

    // Updates carry [before, after]; a template's body is named, not copied.
    const template = await call('PATCH', `/templates/${w.ids.template}`, { subject: 'Audited', body: '<p>New</p>' });
    expect(await entryOf(template)).toMatchObject({
      action: 'template.updated',
      resourceId: w.ids.template,
      changes: { subject: [expect.any(String), 'Audited'], body: redacted },
    });
  });

  it("names a campaign's sending, scheduling and cancelling", async () => {
    const draft = async () =>
      String(
        (
          await call('POST', '/campaigns', {
            name: 'Audited',
            subject: 'Hi',
            body: '<p>Hi</p>',
            from: w.sender,
            audienceType: 'ALL',
          })
        ).json().data.id,
      );
    const now = await draft();
    expect(await entryOf(await call('POST', `/campaigns/${now}/send`))).toMatchObject({
      action: 'campaign.sent',
      resourceType: 'campaign',
      resourceId: now,
      changes: { status: ['DRAFT', 'SENDING'] },
    });
    const later = await draft();
    const scheduled = await call('POST', `/campaigns/${later}/send`, { scheduledFor: '2098-01-01T00:00:00Z' });
    expect(await entryOf(scheduled)).toMatchObject({
      action: 'campaign.scheduled',
      changes: { status: ['DRAFT', 'SCHEDULED'], scheduledAt: [null, '2098-01-01T00:00:00.000Z'] },
    });
    expect(await entryOf(await call('POST', `/campaigns/${later}/cancel`))).toMatchObject({
      action: 'campaign.cancelled',
      changes: { status: ['SCHEDULED', 'CANCELLED'] },
    });
  });

  it('keeps ids, counts and field names of contacts, never their addresses or data', async () => {
    const row = { email: 'imported.person@example.com', data: { plan: 'gold' } };
    const imported = await call('POST', '/contacts/import', [row]);
    expect(await entryOf(imported)).toMatchObject({
      action: 'contact_import.created',
      resourceType: 'contact_import',
      changes: { format: [null, 'json'], rows: [null, 1] },
    });
    const setData = { action: 'setData', contactIds: [w.ids.contact], data: { plan: 'gold' } };
    const bulk = await call('POST', '/contacts/bulk', setData);
    expect(await entryOf(bulk)).toMatchObject({
      action: 'contact_bulk.created',
      changes: { action: [null, 'setData'], count: [null, 1], 'data.plan': redacted },
    });
    const choice = { topics: [{ id: w.ids.topic, subscribed: false }] };
    const topics = await call('PATCH', `/contacts/${w.ids.contact}/topics`, choice);
    expect(await entryOf(topics)).toMatchObject({
      action: 'contact.topics_updated',
      resourceId: w.ids.contact,
      changes: { [`topics.${w.ids.topic}`]: redacted },
    });
    const newMember = { emails: ['new.member@example.com'], createMissing: true };
    const members = await call('POST', `/segments/${w.ids.list}/members`, newMember);
    expect(await entryOf(members)).toMatchObject({
      action: 'segment.members_added',
      resourceId: w.ids.list,
      changes: { added: [null, 1], contactsCreated: [null, 1] },
    });
    const address = 'private.person@example.com';
    const suppressed = await call('POST', '/suppressions', { email: address, detail: 'asked by private.person' });
    expect(await entryOf(suppressed)).toMatchObject({
      action: 'suppression.added',
      resourceId: suppressed.json().data.id,
      changes: { reason: [null, 'MANUAL'] },
    });
    const removed = await call('DELETE', `/suppressions/${encodeURIComponent(address)}`);
    expect(await entryOf(removed)).toMatchObject({
      action: 'suppression.removed',
      resourceId: suppressed.json().data.id,
      changes: { reason: ['MANUAL', null] },
    });

    // Exports are reads, recorded as they start: the filter used, not what was handed out.
    const csv = await call('GET', `/contacts/export?segmentId=${w.ids.list}&data=json`);
    expect(await entryOf(csv)).toMatchObject({
      action: 'contacts.exported',
      resourceType: 'contact',
      resourceId: null,
      projectId: w.project.id,
      changes: { format: [null, 'csv'], segmentId: [null, w.ids.list], data: [null, 'json'] },
    });
    const one = await call('GET', `/contacts/${w.ids.contact}/export`);
    expect(await entryOf(one)).toMatchObject({ action: 'contact.exported', resourceId: w.ids.contact, changes: null });

    // Nothing any module recorded names a contact's address or data (actors are named apart, in their own columns).
    const rows = await realDb.select({ resourceId: auditLog.resourceId, changes: auditLog.changes }).from(auditLog);
    expect(JSON.stringify(rows)).not.toMatch(/[\w.+-]+@example\.com|gold|private\.person/);
  });
});
