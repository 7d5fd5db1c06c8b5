import { z } from 'zod';
import { and, gt, lt, or, eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { validationError } from './errors.ts';
import { isId } from './ids.ts';

/** `limit` and `cursor` of every list endpoint. */
export const paginationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).optional(),
});

export interface Cursor {
  createdAt: Date;
  id: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  total: number;
}

/** An opaque cursor naming the last row of a page (newest-first order). */
export function encodeCursor(row: Cursor): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url');
}

/** Reads a cursor back; anything that is not one of ours is a 422 on `cursor`, never a 500. */
export function decodeCursor(cursor: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      const createdAt = new Date(value[0]);
      if (!Number.isNaN(createdAt.getTime()) && isId(value[1])) return { createdAt, id: value[1] };
    }
  } catch {
    // fall through
  }
  throw validationError('cursor', 'Malformed cursor: pass the nextCursor of a previous page', 'invalid_cursor');
}

const BEFORE = 'before';

/**
 * A cursor for the page before a row (the newer rows in newest-first order), which lists read through listPage take
 * where they take a cursor; every other reader of cursors refuses it as malformed.
 */
export function encodeBeforeCursor(row: Cursor): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id, BEFORE])).toString('base64url');
}

/** The row a before-cursor names; null for any other cursor. */
export function decodeBeforeCursor(cursor: string): Cursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 3 || value[2] !== BEFORE) return null;
    const [at, id] = value as unknown[];
    if (typeof at !== 'string' || typeof id !== 'string' || !isId(id)) return null;
    const createdAt = new Date(at);
    return Number.isNaN(createdAt.getTime()) ? null : { createdAt, id };
  } catch {
    return null;
  }
}

/** The keyset condition "before the cursor" (newer) for newest-first lists ordered by (createdAt desc, id desc). */
export function beforeCursor(createdAt: PgColumn, id: PgColumn, c: Cursor): SQL | undefined {
  return or(gt(createdAt, c.createdAt), and(eq(createdAt, c.createdAt), gt(id, c.id)));
}

/** The keyset condition "after the cursor" for newest-first lists ordered by (createdAt desc, id desc). */
export function afterCursor(createdAt: PgColumn, id: PgColumn, cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const c = decodeCursor(cursor);
  return or(lt(createdAt, c.createdAt), and(eq(createdAt, c.createdAt), lt(id, c.id)));
}

/** Turns `limit + 1` fetched rows into a page with its cursor. */
export function toPage<R extends Cursor, T>(rows: R[], limit: number, total: number, map: (row: R) => T): Page<T> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    items: pageRows.map(map),
    nextCursor: hasMore && last ? encodeCursor(last) : null,
    hasMore,
    total,
  };
}
