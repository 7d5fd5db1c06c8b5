// Resend's lists page with `limit` and `after` (the id of the last item seen) or `before` (the id of the first);
// Herald's with an opaque cursor.
import { z } from 'zod';
import { AppError, validationError } from '../../lib/errors.ts';
import { encodeCursor, type Page } from '../../lib/pagination.ts';

export const resendListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.string().min(1).max(100).optional().describe('The id of the last item of the previous page'),
  before: z.string().min(1).max(100).optional().describe('The id of the first item of the next page'),
});

export type ResendListQuery = z.infer<typeof resendListQuery>;

/** Resend's list envelope around some item schema. */
export function resendList<T extends z.ZodType>(item: T) {
  return z.object({ object: z.literal('list'), has_more: z.boolean(), data: z.array(item) });
}

/**
 * The Herald cursor of `after` or `before`: the item it names, found by `find` (which answers its creation time or
 * throws a 404), else a 422 on that field. Both at once are a 422.
 */
export async function cursorOf(
  query: ResendListQuery,
  find: (id: string) => Promise<{ id: string; createdAt: string }>,
): Promise<string | undefined> {
  if (query.before !== undefined && query.after !== undefined)
    throw validationError('before', 'Give `after` or `before`, not both', 'conflict');
  const field = query.before !== undefined ? 'before' : 'after';
  const ref = query[field];
  if (ref === undefined) return undefined;
  try {
    const item = await find(ref);
    return encodeCursor({ createdAt: new Date(item.createdAt), id: item.id }, field === 'before');
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND')
      throw validationError(field, `\`${field}\` names no item of this list`, 'invalid_cursor');
    throw error;
  }
}

/**
 * One page of a short list held whole (newest first), by the id in `after` or `before` (422 when it names no item),
 * in Resend's list shape.
 */
export function pageOfList<T extends { id: string }>(items: T[], query: ResendListQuery) {
  if (query.before !== undefined && query.after !== undefined)
    throw validationError('before', 'Give `after` or `before`, not both', 'conflict');
  const field = query.before !== undefined ? 'before' : 'after';
  const ref = query[field];
  const at = ref === undefined ? -1 : items.findIndex((item) => item.id === ref);
  if (ref !== undefined && at < 0)
    throw validationError(field, `\`${field}\` names no item of this list`, 'invalid_cursor');
  if (field === 'before' && ref !== undefined) {
    const start = Math.max(0, at - query.limit);
    return { object: 'list' as const, has_more: start > 0, data: items.slice(start, at) };
  }
  const data = items.slice(at + 1, at + 1 + query.limit);
  return { object: 'list' as const, has_more: at + 1 + query.limit < items.length, data };
}

/** A Herald page as Resend's list. */
export function toResendList<T, R>(page: Page<T>, map: (item: T) => R) {
  return { object: 'list' as const, has_more: page.hasMore, data: page.items.map(map) };
}

/**
 * A Resend list of a Herald list: `after` or `before` found by `find` (see cursorOf), the page read by `list` from
 * that cursor, each item shaped by `map`.
 */
export async function resendListOf<T, R>(
  query: ResendListQuery,
  find: (id: string) => Promise<{ id: string; createdAt: string }>,
  list: (cursor: string | undefined) => Promise<Page<T>>,
  map: (item: T) => R,
) {
  return toResendList(await list(await cursorOf(query, find)), map);
}

/** A Resend object without its `object` field, as lists show their items. */
export function listItem<T extends { object: string }>(value: T): Omit<T, 'object'> {
  const { object: _object, ...item } = value;
  return item;
}
