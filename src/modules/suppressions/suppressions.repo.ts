import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { suppressions, type SuppressionReason } from '../../db/schema/suppressions.ts';
import { newId } from '../../lib/ids.ts';
import { listPage } from '../../db/list-page.ts';

export type SuppressionRow = typeof suppressions.$inferSelect;

/** Which of these addresses the project must not send to, with the reason. */
export async function findSuppressed(
  db: Executor,
  projectId: string,
  emails: string[],
): Promise<Map<string, SuppressionReason>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .select({ email: suppressions.email, reason: suppressions.reason })
    .from(suppressions)
    .where(and(eq(suppressions.projectId, projectId), inArray(suppressions.email, emails)));
  return new Map(rows.map((r) => [r.email, r.reason]));
}

/** Adds an address to the list (an existing entry is kept as it was); returns the row when new. */
export async function addSuppression(
  db: Executor,
  row: { projectId: string; email: string; reason: SuppressionReason; detail?: string | null; emailId?: string | null },
): Promise<SuppressionRow | null> {
  const [created] = await db
    .insert(suppressions)
    .values({ id: newId(), ...row })
    .onConflictDoNothing()
    .returning();
  return created ?? null;
}

export async function findSuppression(db: Executor, projectId: string, email: string): Promise<SuppressionRow | null> {
  const [row] = await db
    .select()
    .from(suppressions)
    .where(and(eq(suppressions.projectId, projectId), eq(suppressions.email, email)));
  return row ?? null;
}

export async function listSuppressions(
  db: Executor,
  projectId: string,
  opts: { limit: number; cursor?: string | undefined; reason?: SuppressionReason | undefined },
) {
  const filters = and(
    eq(suppressions.projectId, projectId),
    opts.reason ? eq(suppressions.reason, opts.reason) : undefined,
  );
  return listPage(db, suppressions, filters, opts);
}

/** Removes an address from the list, so sending to it resumes; the entry removed, or null. */
export async function deleteSuppression(
  db: Executor,
  projectId: string,
  email: string,
): Promise<{ id: string; reason: SuppressionReason } | null> {
  const [row] = await db
    .delete(suppressions)
    .where(and(eq(suppressions.projectId, projectId), eq(suppressions.email, email)))
    .returning({ id: suppressions.id, reason: suppressions.reason });
  return row ?? null;
}
