import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/index.ts';
import { AppError } from '../lib/errors.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request still "running" after this long is taken to have died, and the key may be used again. */
const RUNNING_LEASE_MS = 60_000;

type Row = typeof idempotencyKeys.$inferSelect;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: string | null;
  }
}

function requestHash(request: FastifyRequest): string {
  const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? null);
  return createHash('sha256').update(`${request.method} ${request.routeOptions.url ?? request.url}\n${body}`).digest('hex');
}

// Side effect: claims the key for this request; null when someone holds it already.
async function claimKey(db: Db, projectId: string, key: string, hash: string): Promise<boolean> {
  const rows = await db.insert(idempotencyKeys)
    .values({ projectId, key, requestHash: hash, status: 'running', lockedUntil: new Date(Date.now() + RUNNING_LEASE_MS) })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

async function findKey(db: Db, projectId: string, key: string): Promise<Row | null> {
  const [row] = await db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.projectId, projectId), eq(idempotencyKeys.key, key)));
  return row ?? null;
}

// Side effect: takes over a key whose holder died mid-request (guarded: only one taker wins).
async function takeOverStale(db: Db, row: Row): Promise<boolean> {
  const rows = await db.update(idempotencyKeys)
    .set({ lockedUntil: new Date(Date.now() + RUNNING_LEASE_MS) })
    .where(and(eq(idempotencyKeys.projectId, row.projectId), eq(idempotencyKeys.key, row.key), eq(idempotencyKeys.status, 'running'), lt(idempotencyKeys.lockedUntil, sql`now()`)))
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

// Side effect: removes a key that expired (older than 24 h) so it can be claimed afresh.
async function deleteExpired(db: Db, row: Row): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.projectId, row.projectId), eq(idempotencyKeys.key, row.key), eq(idempotencyKeys.createdAt, row.createdAt)));
}

/** Deletes keys older than 24 h (maintenance job). */
export async function purgeIdempotencyKeys(db: Db): Promise<number> {
  const rows = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_TTL_MS))).returning({ key: idempotencyKeys.key });
  return rows.length;
}

function replay(reply: FastifyReply, row: Row): FastifyReply {
  reply.header('Idempotent-Replayed', 'true').code(row.responseStatus ?? 200).type('application/json; charset=utf-8');
  return reply.send(row.responseBody ?? '');
}

/**
 * `Idempotency-Key` on POST: the first response is stored for 24 h and replayed for the same body;
 * another body → 422 IDEMPOTENCY_KEY_MISMATCH; while the first is running → 409.
 */
export function registerIdempotency(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('idempotencyKey', null);

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined || !request.auth) return;
    if (typeof key !== 'string' || !/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(key)) {
      throw new AppError('BAD_REQUEST', 'Idempotency-Key must be 1–255 printable ASCII characters');
    }
    const projectId = request.auth.projectId;
    const hash = requestHash(request);
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await claimKey(ctx.db, projectId, key, hash)) {
        request.idempotencyKey = key;
        return;
      }
      const row = await findKey(ctx.db, projectId, key);
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
        request.idempotencyKey = key;
        return;
      }
      throw new AppError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed', {
        headers: { 'Retry-After': '1' },
      });
    }
    throw new AppError('CONFLICT', 'Could not claim the Idempotency-Key; retry');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (!key || !request.auth) return payload;
    request.idempotencyKey = null;
    const where = and(eq(idempotencyKeys.projectId, request.auth.projectId), eq(idempotencyKeys.key, key));
    if (reply.statusCode >= 500) {
      // A failure we cannot vouch for: let the client retry with the same key.
      await ctx.db.delete(idempotencyKeys).where(where);
    } else {
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
      await ctx.db.update(idempotencyKeys).set({ status: 'done', responseStatus: reply.statusCode, responseBody: body }).where(where);
    }
    return payload;
  });
}
