import { and, asc, count, countDistinct, eq, gt, inArray, max } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { contacts, events, type JsonObject } from '../../db/schema/index.ts';
import { listPage } from '../../db/list-page.ts';

export type EventRow = typeof events.$inferSelect;

export interface EventFilters {
  name?: string | undefined;
  contactId?: string | undefined;
  /** Normalised email of the contact. */
  email?: string | undefined;
}

export async function listEvents(
  db: Executor,
  projectId: string,
  opts: EventFilters & { limit: number; cursor?: string | undefined },
) {
  const where = and(
    eq(events.projectId, projectId),
    opts.name === undefined ? undefined : eq(events.name, opts.name),
    opts.contactId === undefined ? undefined : eq(events.contactId, opts.contactId),
    opts.email === undefined
      ? undefined
      : inArray(
          events.contactId,
          db
            .select({ id: contacts.id })
            .from(contacts)
            .where(and(eq(contacts.projectId, projectId), eq(contacts.email, opts.email))),
        ),
  );
  return listPage(db, events, where, opts);
}

/** Distinct event names of a project with their counts, by name, after the name `after`. */
export async function listEventNames(
  db: Executor,
  projectId: string,
  opts: { limit: number; after?: string | undefined },
) {
  const [rows, [total]] = await Promise.all([
    db
      .select({ name: events.name, count: count(), lastSeenAt: max(events.createdAt) })
      .from(events)
      .where(and(eq(events.projectId, projectId), opts.after === undefined ? undefined : gt(events.name, opts.after)))
      .groupBy(events.name)
      .orderBy(asc(events.name))
      .limit(opts.limit + 1),
    db
      .select({ n: countDistinct(events.name) })
      .from(events)
      .where(eq(events.projectId, projectId)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/**
 * Records events the service emits itself (email.sent, email.opened, …). The database starts and wakes the workflows
 * the events trigger, in the same statement: trigger events_start_workflows, shown with its reason in
 * docs/database-triggers.md.
 */
export async function insertEvents(
  db: Executor,
  rows: { id: string; projectId: string; contactId: string; name: string; data: JsonObject }[],
): Promise<EventRow[]> {
  if (rows.length === 0) return [];
  return db.insert(events).values(rows).returning();
}

export async function findEvent(db: Executor, projectId: string, id: string): Promise<EventRow | null> {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.projectId, projectId), eq(events.id, id)));
  return row ?? null;
}
