import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.types.ts';
import type { Db, Executor } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/index.ts';
import { AppError } from '../lib/errors.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request still "running" after this long is taken to have died, and the key may be used again. */
const RUNNING_LEASE_MS = 60_000;

type Row = typeof idempotencyKeys.$inferSelect;

/** The key a request holds: which project, which request (method and real path), which key. */
export interface HeldKey {
  projectId: string;
  scope: string;
  key: string;
  /** Set once the response was stored in the transaction of the work itself (see saveIdempotentResponse). */
  saved: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: HeldKey | null;
  }
  interface FastifyContextConfig {
    /**
     * Fields of the response's `data` (of the body itself when it has no `data` envelope, as Resend's answers)
     * that carry a secret or a key shown once (`secret`, `secretKey`): the stored response leaves them out, so the
     * idempotency table never holds a secret in clear, and a replay answers the same resource without handing the
     * secret out a second time.
     */
    secretFields?: readonly string[];
  }
}

/** The key's scope: method and the real path, so one key on /domains/A/verify and /domains/B/verify are two keys. */
function scopeOf(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return `${request.method} ${q === -1 ? request.url : request.url.slice(0, q)}`;
}

/** Hash of what must match on a replay: the query string and the body. */
function requestHash(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? null);
  return createHash('sha256')
    .update(`${q === -1 ? '' : request.url.slice(q)}\n${body}`)
    .digest('hex');
}

const keyIs = (held: Pick<HeldKey, 'projectId' | 'scope' | 'key'>) =>
  and(
    eq(idempotencyKeys.projectId, held.projectId),
    eq(idempotencyKeys.scope, held.scope),
    eq(idempotencyKeys.key, held.key),
  );

/** Claims the key for this request; false when someone holds it already. */
async function claimKey(db: Db, held: HeldKey, hash: string): Promise<boolean> {
  const rows = await db
    .insert(idempotencyKeys)
    .values({
      projectId: held.projectId,
      scope: held.scope,
      key: held.key,
      requestHash: hash,
      status: 'running',
      lockedUntil: new Date(Date.now() + RUNNING_LEASE_MS),
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

async function findKey(db: Db, held: HeldKey): Promise<Row | null> {
  const [row] = await db.select().from(idempotencyKeys).where(keyIs(held));
  return row ?? null;
}

/** Takes over a key whose holder died mid-request (guarded: only one taker wins). */
async function takeOverStale(db: Db, row: Row): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({ lockedUntil: new Date(Date.now() + RUNNING_LEASE_MS) })
    .where(and(keyIs(row), eq(idempotencyKeys.status, 'running'), lt(idempotencyKeys.lockedUntil, sql`now()`)))
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

/** Removes a key that expired (older than 24 h) so it can be claimed afresh. */
async function deleteExpired(db: Db, row: Row): Promise<void> {
  await db.delete(idempotencyKeys).where(and(keyIs(row), eq(idempotencyKeys.createdAt, row.createdAt)));
}

/** Deletes keys older than 24 h (maintenance job). */
export async function purgeIdempotencyKeys(db: Db): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_TTL_MS)))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}

/** The response body as it may be kept: without the route's secret fields (see `secretFields`). */
function storableBody(request: FastifyRequest, body: string): string {
  const fields = request.routeOptions.config.secretFields;
  if (!fields || fields.length === 0) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return ''; // not the JSON envelope: keep nothing rather than a body that may hold the secret
  }
  const data = (parsed as { data?: unknown } | null)?.data;
  const holder = data && typeof data === 'object' ? data : parsed;
  if (holder && typeof holder === 'object')
    for (const field of fields) delete (holder as Record<string, unknown>)[field];
  return JSON.stringify(parsed);
}

/** Stores the response of the request holding the key, without its secret fields. */
async function storeResponse(
  db: Executor,
  request: FastifyRequest,
  held: HeldKey,
  statusCode: number,
  body: string,
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status: 'done', responseStatus: statusCode, responseBody: storableBody(request, body) })
    .where(keyIs(held));
}

/**
 * Stores the response inside the transaction of the work it answers for: if the process
 * dies between that commit and the reply, a retry with the same key replays this answer instead of
 * doing the work twice. A no-op when the request carries no Idempotency-Key.
 */
export async function saveIdempotentResponse(
  tx: Executor,
  request: FastifyRequest,
  statusCode: number,
  body: unknown,
): Promise<void> {
  const held = request.idempotencyKey;
  if (!held) return;
  await storeResponse(tx, request, held, statusCode, JSON.stringify(body));
  held.saved = true;
}

function replay(reply: FastifyReply, row: Row): FastifyReply {
  reply
    .header('Idempotent-Replayed', 'true')
    .code(row.responseStatus ?? 200)
    .type('application/json; charset=utf-8');
  return reply.send(row.responseBody ?? '');
}

/**
 * `Idempotency-Key` on POST, scoped to the project, the method and the real path: the first response is
 * stored for 24 h and replayed for the same body (less the route's `secretFields`); another body → 422
 * IDEMPOTENCY_KEY_MISMATCH; while the first is running → 409.
 */
export function registerIdempotency(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('idempotencyKey', null);

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined || !request.auth) return;
    if (typeof key !== 'string' || !/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(key)) {
      throw new AppError('BAD_REQUEST', 'Idempotency-Key must be 1–255 printable ASCII characters');
    }
    const held: HeldKey = { projectId: request.auth.projectId, scope: scopeOf(request), key, saved: false };
    const hash = requestHash(request);
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await claimKey(ctx.db, held, hash)) {
        request.idempotencyKey = held;
        return;
      }
      const row = await findKey(ctx.db, held);
      if (!row) continue;
      if (row.createdAt.getTime() < Date.now() - IDEMPOTENCY_TTL_MS) {
        await deleteExpired(ctx.db, row);
        continue;
      }
      if (row.requestHash !== hash) {
        throw new AppError('IDEMPOTENCY_KEY_MISMATCH', 'This Idempotency-Key was used with a different request body', {
          suggestion: 'Use a new key for a different request.',
        });
      }
      if (row.status === 'done') return replay(reply, row);
      if (row.lockedUntil.getTime() < Date.now() && (await takeOverStale(ctx.db, row))) {
        request.idempotencyKey = held;
        return;
      }
      throw new AppError(
        'IDEMPOTENCY_KEY_IN_PROGRESS',
        'A request with this Idempotency-Key is still being processed',
        {
          headers: { 'Retry-After': '1' },
        },
      );
    }
    throw new AppError('CONFLICT', 'Could not claim the Idempotency-Key; retry');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotencyKey;
    if (!held) return payload;
    request.idempotencyKey = null;
    // Stored with the work already: whatever happens to this reply, a retry replays that answer.
    if (held.saved) return payload;
    if (reply.statusCode >= 500) {
      // A failure we cannot vouch for: let the client retry with the same key.
      await ctx.db.delete(idempotencyKeys).where(keyIs(held));
    } else {
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
      await storeResponse(ctx.db, request, held, reply.statusCode, body);
    }
    return payload;
  });
}

/** A key used outside HTTP (the SMTP relay): the project, a scope of its own, and the client's key. */
export type StoredKey = Pick<HeldKey, 'projectId' | 'scope' | 'key'>;

/** The answer stored under a key within the last 24 h, or null (an expired key is removed, so it can be used again). */
export async function findStoredAnswer(db: Db, held: StoredKey): Promise<string | null> {
  const row = await findKey(db, { ...held, saved: false });
  if (!row) return null;
  if (row.createdAt.getTime() < Date.now() - IDEMPOTENCY_TTL_MS) {
    await deleteExpired(db, row);
    return null;
  }
  return row.status === 'done' ? (row.responseBody ?? '') : null;
}

/**
 * Stores the answer under the key in the transaction of the work it answers for; false when the key is taken already (a
 * concurrent submission with the same key committed first: roll back and answer with its result).
 */
export async function storeAnswer(tx: Executor, held: StoredKey, answer: string): Promise<boolean> {
  const rows = await tx
    .insert(idempotencyKeys)
    .values({
      ...held,
      requestHash: '',
      status: 'done',
      responseStatus: 250,
      responseBody: answer,
      lockedUntil: new Date(),
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}
