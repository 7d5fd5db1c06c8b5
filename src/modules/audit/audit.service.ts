import type { Executor } from '../../db/client.ts';
import { iso } from '../../lib/http.ts';
import { newId } from '../../lib/ids.ts';
import { toPage } from '../../lib/pagination.ts';
import { currentOrigin, type Actor } from '../../lib/request-origin.ts';
import { deleteExpired, type RetentionPass } from '../../lib/retention.ts';
import * as repo from './audit.repo.ts';

/** What a change's entry says: the action (`<resource>.<verb>`), the resource, and the fields it changed. */
export interface AuditChange {
  action: string;
  resourceType: string;
  resourceId?: string | null | undefined;
  projectId?: string | null | undefined;
  changes?: Record<string, [unknown, unknown]> | null | undefined;
  /** Who, when it is not the one running the request or command (a sign-in names the person signing in). */
  actor?: Actor | undefined;
}

/** Stands in for values the log never keeps: secrets, passwords, key material, contacts' personal data. */
export const REDACTED = '[redacted]';

/**
 * Appends entries for changes, with the actor, client address and request id of the request or command running
 * now; call it in the transaction that makes the change, so both are kept or neither.
 */
export async function recordAudit(db: Executor, ...entries: AuditChange[]): Promise<void> {
  const origin = currentOrigin();
  origin.recorded += entries.length;
  await repo.insertEntries(
    db,
    entries.map((entry) => {
      const actor = entry.actor ?? origin.actor;
      return {
        id: newId(),
        actorType: actor.type,
        actorId: actor.id,
        actorLabel: actor.label.slice(0, 320),
        action: entry.action,
        resourceType: entry.resourceType,
        resourceId: entry.resourceId ?? null,
        projectId: entry.projectId ?? null,
        ip: origin.ip,
        userAgent: origin.userAgent?.slice(0, 512) ?? null,
        requestId: origin.requestId,
        changes: entry.changes ?? null,
      };
    }),
  );
}

/**
 * The fields of `after` that differ from `before`, as `{field: [before, after]}` (null when nothing changed);
 * fields named in `redact` show that they changed but not their values.
 */
export function changesOf<T extends Record<string, unknown>>(
  before: T | null,
  after: Partial<T>,
  opts: { redact?: readonly string[]; only?: readonly string[] } = {},
): Record<string, [unknown, unknown]> | null {
  const redact = new Set(opts.redact ?? []);
  const changes: Record<string, [unknown, unknown]> = {};
  for (const field of opts.only ?? Object.keys(after)) {
    if (!(field in after)) continue;
    const [was, now] = [before?.[field] ?? null, after[field] ?? null];
    if (JSON.stringify(was) === JSON.stringify(now)) continue;
    changes[field] = redact.has(field) ? [REDACTED, REDACTED] : [jsonValue(was), jsonValue(now)];
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

function jsonValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

export function entryView(row: repo.AuditRow) {
  return {
    id: row.id,
    at: iso(row.at),
    actor: { type: row.actorType, id: row.actorId, label: row.actorLabel },
    action: row.action,
    resourceType: row.resourceType,
    resourceId: row.resourceId,
    projectId: row.projectId,
    ip: row.ip,
    userAgent: row.userAgent,
    requestId: row.requestId,
    changes: row.changes,
  };
}

export async function listAudit(opts: {
  db: Executor;
  filter: repo.AuditFilter;
  limit: number;
  cursor?: string | undefined;
}) {
  const { rows, total } = await repo.listEntries(opts.db, opts.filter, opts);
  return toPage(
    rows.map((row) => ({ ...row, createdAt: row.at })),
    opts.limit,
    total,
    entryView,
  );
}

/** Deletes every entry older than `days`, batch by batch; answers how many. */
export function deleteExpiredEntries(opts: RetentionPass & { db: Executor }): Promise<number> {
  return deleteExpired(opts, (before, size) => repo.deleteEntriesBefore(opts.db, before, size));
}
