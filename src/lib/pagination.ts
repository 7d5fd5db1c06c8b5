import { z } from 'zod';
import { and, asc, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';
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

/** A decoded cursor: the row it names, and whether the page wanted is the one before that row (newer rows). */
export interface PageCursor extends Cursor {
  backward: boolean;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  total: number;
}

/**
 * An opaque cursor naming the last row of a page (newest-first order); `backward`: a cursor of the page before that
 * row, the rows newer than it.
 */
export function encodeCursor(row: Cursor, backward = false): string {
  const value = [row.createdAt.toISOString(), row.id, ...(backward ? ['before'] : [])];
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Reads a cursor back; anything that is not one of ours is a 422 on `cursor`, never a 500. */
export function decodeCursor(cursor: string): PageCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const shaped =
      Array.isArray(value) &&
      (value.length === 2 || (value.length === 3 && value[2] === 'before')) &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string';
    if (shaped) {
      const createdAt = new Date(value[0] as string);
      const id = value[1] as string;
      if (!Number.isNaN(createdAt.getTime()) && isId(id)) return { createdAt, id, backward: value.length === 3 };
    }
  } catch {
    // fall through
  }
  throw validationError('cursor', 'Malformed cursor: pass the nextCursor of a previous page', 'invalid_cursor');
}

/**
 * The keyset condition "after the cursor" for newest-first lists ordered by (createdAt desc, id desc), which page
 * forward only (a cursor of a page before a row is a 422 there).
 */
export function afterCursor(createdAt: PgColumn, id: PgColumn, cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const c = decodeCursor(cursor);
  if (c.backward) throw validationError('cursor', 'This list pages forward only', 'invalid_cursor');
  return olderThan(createdAt, id, c);
}

/** Rows after `c` in newest-first order. */
const olderThan = (createdAt: PgColumn, id: PgColumn, c: Cursor) =>
  or(lt(createdAt, c.createdAt), and(eq(createdAt, c.createdAt), lt(id, c.id)));

/**
 * A newest-first list's keyset in both directions: the condition and order of the query (oldest first from the
 * cursor when it asks for the page before its row), and `arrange`, which turns the `limit + 1` rows read back into
 * newest-first order with the extra row, if any, last (as toPage expects it).
 */
export function keyset(createdAt: PgColumn, id: PgColumn, cursor: string | undefined) {
  const c = cursor ? decodeCursor(cursor) : null;
  if (!c?.backward) {
    return {
      where: c ? olderThan(createdAt, id, c) : undefined,
      orderBy: [desc(createdAt), desc(id)],
      arrange: <R>(rows: R[], _limit: number) => rows,
    };
  }
  return {
    where: or(gt(createdAt, c.createdAt), and(eq(createdAt, c.createdAt), gt(id, c.id))),
    orderBy: [asc(createdAt), asc(id)],
    arrange: <R>(rows: R[], limit: number) => [...rows.slice(0, limit).reverse(), ...rows.slice(limit)],
  };
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
