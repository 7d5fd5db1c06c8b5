// Resend's lists page with `limit` and `after` (the id of the last item seen); Herald's with an opaque cursor.
import { z } from 'zod';
import { AppError, validationError } from '../../lib/errors.ts';
import { encodeCursor, type Page } from '../../lib/pagination.ts';

export const resendListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.string().min(1).max(100).optional().describe('The id of the last item of the previous page'),
  before: z.string().min(1).max(100).optional().describe('Not supported: lists page forward only, with `after`'),
});

export type ResendListQuery = z.infer<typeof resendListQuery>;

/** Resend's list envelope around some item schema. */
export function resendList<T extends z.ZodType>(item: T) {
  return z.object({ object: z.literal('list'), has_more: z.boolean(), data: z.array(item) });
}

/**
 * The Herald cursor of `after`: the item it names, found by `find` (which answers its creation time or throws a
 * 404), else a 422 on `after`. `before` is a 422: Herald's lists only page forward.
 */
export async function cursorOf(
  query: ResendListQuery,
  find: (id: string) => Promise<{ id: string; createdAt: string }>,
): Promise<string | undefined> {
  if (query.before !== undefined)
    throw validationError('before', '`before` is not supported: page forward with `after`', 'unsupported');
  if (query.after === undefined) return undefined;
  try {
    const item = await find(query.after);
    return encodeCursor({ createdAt: new Date(item.createdAt), id: item.id });
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND')
      throw validationError('after', '`after` names no item of this list', 'invalid_cursor');
    throw error;
  }
}

/** A Herald page as Resend's list. */
export function toResendList<T, R>(page: Page<T>, map: (item: T) => R) {
  return { object: 'list' as const, has_more: page.hasMore, data: page.items.map(map) };
}
