import type { Executor } from '../../db/client.ts';
import { findOr404 } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { toPage } from '../../lib/pagination.ts';
import { deleteExpired, type RetentionPass } from '../../lib/retention.ts';
import * as repo from './logs.repo.ts';

/** What an erased address becomes in the log's paths and bodies. */
export const ERASED = '[erased]';

function parsed(json: string | null): unknown {
  if (json === null) return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    // A body whose JSON an erasure could not keep whole is shown as its text.
    return json;
  }
}

export function entryView(row: repo.RequestLogRow) {
  return {
    id: row.id,
    at: iso(row.createdAt),
    method: row.method,
    path: row.path,
    status: row.status,
    durationMs: row.durationMs,
    actor: { type: row.actorType, id: row.actorId, label: row.actorLabel },
    ip: row.ip,
    userAgent: row.userAgent,
    requestId: row.requestId,
    requestBody: parsed(row.requestBody),
    requestBodyCut: row.requestBodyCut,
    requestBytes: row.requestBytes,
    responseBody: parsed(row.responseBody),
    responseBodyCut: row.responseBodyCut,
    responseBytes: row.responseBytes,
  };
}

export type LogEntryView = ReturnType<typeof entryView>;

export async function listLogs(opts: {
  db: Executor;
  filter: repo.RequestLogFilter;
  limit: number;
  cursor?: string | undefined;
}) {
  const { rows, total } = await repo.listEntries(opts.db, opts.filter, opts);
  return toPage(rows, opts.limit, total, entryView);
}

export async function getLog(opts: { db: Executor; projectId: string; id: string }) {
  return entryView(
    await findOr404('Request log entry', opts.id, () => repo.findEntry(opts.db, opts.projectId, opts.id)),
  );
}

/** A case-insensitive regular expression (PostgreSQL's) matching any of the addresses, literally. */
function addressPattern(emails: string[]): string {
  return emails.map((email) => email.replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`)).join('|');
}

/**
 * Side effect: replaces deleted contacts' addresses with "[erased]" in the project's logged paths and bodies, in the
 * deleting transaction. Entries still waiting in a process's buffer (up to a second old) are written after it.
 */
export async function eraseContactsFromLog(opts: {
  db: Executor;
  projectId: string;
  contacts: { id: string; email: string }[];
}): Promise<void> {
  const emails = [...new Set(opts.contacts.map((c) => c.email.toLowerCase()))];
  for (let i = 0; i < emails.length; i += 100)
    await repo.replaceInEntries(opts.db, opts.projectId, addressPattern(emails.slice(i, i + 100)), ERASED);
}

/** Deletes every entry older than `days`, batch by batch; answers how many. */
export function deleteExpiredLogs(opts: RetentionPass & { db: Executor }): Promise<number> {
  return deleteExpired(opts, (before, size) => repo.deleteEntriesBefore(opts.db, before, size));
}
