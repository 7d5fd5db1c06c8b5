// Resend's lists page with `limit` and `after` (the id of the last item seen) or `before` (the id of the first item
// seen); Herald's with an opaque cursor.
import { z } from 'zod';
import { AppError, validationError } from '../../lib/errors.ts';
import { encodeBeforeCursor, encodeCursor, type Page } from '../../lib/pagination.ts';

export const resendListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.string().min(1).max(100).optional().describe('The id of the last item of the previous page'),
  before: z.string().min(1).max(100).optional().describe('The id of the first item of the next page (newer items)'),
});

export type ResendListQuery = z.infer<typeof resendListQuery>;

/** Resend's list envelope around some item schema. */
export function resendList<T extends z.ZodType>(item: T) {
  return z.object({ object: z.literal('list'), has_more: z.boolean(), data: z.array(item) });
}

/**
 * The Herald cursor of `after` or `before`: the item it names, found by `find` (which answers its creation time or
 * throws a 404), else a 422 on the field; both at once are a 422.
 */
export async function cursorOf(
  query: ResendListQuery,
  find: (id: string) => Promise<{ id: string; createdAt: string }>,
): Promise<string | undefined> {
  if (query.before !== undefined && query.after !== undefined)
    throw validationError('before', 'Give `after` or `before`, not both', 'invalid');
  const field = query.before !== undefined ? 'before' : 'after';
  const ref = query[field];
  if (ref === undefined) return undefined;
  try {
    const item = await find(ref);
    const row = { createdAt: new Date(item.createdAt), id: item.id };
    return field === 'before' ? encodeBeforeCursor(row) : encodeCursor(row);
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND')
      throw validationError(field, `\`${field}\` names no item of this list`, 'invalid_cursor');
    throw error;
  }
}

/** A Herald page as Resend's list. */
export function toResendList<T, R>(page: Page<T>, map: (item: T) => R) {
  return { object: 'list' as const, has_more: page.hasMore, data: page.items.map(map) };
}

/**
 * One page of a short list held whole (the attachments of one email): `limit` items after the one `after` names, or
 * before the one `before` names; an id the list lacks is a 422, as for every list.
 */
export function pageOfList<T>(items: T[], query: ResendListQuery, idOf: (item: T) => string) {
  const indexOf = (field: 'after' | 'before', id: string) => {
    const index = items.findIndex((item) => idOf(item) === id);
    if (index < 0) throw validationError(field, `\`${field}\` names no item of this list`, 'invalid_cursor');
    return index;
  };
  if (query.before !== undefined) {
    const end = indexOf('before', query.before);
    const start = Math.max(0, end - query.limit);
    return { object: 'list' as const, has_more: start > 0, data: items.slice(start, end) };
  }
  const start = query.after === undefined ? 0 : indexOf('after', query.after) + 1;
  return {
    object: 'list' as const,
    has_more: start + query.limit < items.length,
    data: items.slice(start, start + query.limit),
  };
}
