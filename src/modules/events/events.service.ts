import type { Executor } from '../../db/client.ts';
import type { JsonObject } from '../../db/schema/index.ts';
import { validationError } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { newId } from '../../lib/ids.ts';
import { toPage, type Page } from '../../lib/pagination.ts';
import * as repo from './events.repo.ts';

export interface EventView {
  id: string;
  name: string;
  contactId: string;
  data: JsonObject;
  createdAt: string;
}

export interface EventNameView {
  name: string;
  count: number;
  lastSeenAt: string;
}

/** The API shape of an event. */
export function toEventView(row: repo.EventRow): EventView {
  return { id: row.id, name: row.name, contactId: row.contactId, data: row.data, createdAt: iso(row.createdAt) };
}

/** GET /events: newest first, filtered by name, contact id or contact email. */
export async function listEvents(
  opts: { db: Executor; projectId: string; limit: number; cursor?: string | undefined } & repo.EventFilters,
): Promise<Page<EventView>> {
  const { rows, total } = await repo.listEvents(opts.db, opts.projectId, opts);
  return toPage(rows, opts.limit, total, toEventView);
}

// The names list pages by name (stable while events keep arriving); its cursor is the last name.
function encodeNameCursor(name: string): string {
  return Buffer.from(JSON.stringify({ after: name })).toString('base64url');
}

function decodeNameCursor(cursor: string): string {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown } | null;
    if (value && typeof value.after === 'string') return value.after;
  } catch {
    // fall through
  }
  throw validationError('cursor', 'Malformed cursor: pass the nextCursor of a previous page', 'invalid_cursor');
}

/** GET /events/names: each event name of the project with its count and last time, by name. */
export async function listEventNames(opts: {
  db: Executor;
  projectId: string;
  limit: number;
  cursor?: string | undefined;
}): Promise<Page<EventNameView>> {
  const after = opts.cursor === undefined ? undefined : decodeNameCursor(opts.cursor);
  const { rows, total } = await repo.listEventNames(opts.db, opts.projectId, { limit: opts.limit, after });
  const hasMore = rows.length > opts.limit;
  const page = hasMore ? rows.slice(0, opts.limit) : rows;
  return {
    items: page.map((row) => ({ name: row.name, count: row.count, lastSeenAt: iso(row.lastSeenAt!) })),
    nextCursor: hasMore ? encodeNameCursor(page[page.length - 1]!.name) : null,
    hasMore,
    total,
  };
}

/** Records events the service emits itself (`email.sent`, `email.opened`, …); pass a transaction as `db`. */
export async function recordEvents(opts: {
  db: Executor;
  projectId: string;
  events: { contactId: string; name: string; data?: JsonObject }[];
}): Promise<EventView[]> {
  const rows = await repo.insertEvents(
    opts.db,
    opts.events.map((e) => ({
      id: newId(),
      projectId: opts.projectId,
      contactId: e.contactId,
      name: e.name,
      data: e.data ?? {},
    })),
  );
  return rows.map(toEventView);
}

/** One event of the project in its API shape, or null (a workflow WEBHOOK step sends its trigger). */
export async function findEventView(opts: { db: Executor; projectId: string; id: string }): Promise<EventView | null> {
  const row = await repo.findEvent(opts.db, opts.projectId, opts.id);
  return row ? toEventView(row) : null;
}
