import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { contactImports, type ImportRowError } from '../../db/schema/index.ts';

export type ContactImportRow = typeof contactImports.$inferSelect;

/** Stores a new import with its raw upload (status queued). */
export async function insertImport(
  db: Executor,
  row: { id: string; projectId: string; format: 'csv' | 'json'; source: string; total: number },
): Promise<ContactImportRow> {
  const [created] = await db.insert(contactImports).values(row).returning();
  return created!;
}

export async function findImport(db: Executor, projectId: string, id: string): Promise<ContactImportRow | null> {
  const [row] = await db
    .select()
    .from(contactImports)
    .where(and(eq(contactImports.id, id), eq(contactImports.projectId, projectId)));
  return row ?? null;
}

/** The import a job works on, whatever its project (the job payload names it). */
export async function findImportForJob(db: Executor, id: string): Promise<ContactImportRow | null> {
  const [row] = await db.select().from(contactImports).where(eq(contactImports.id, id));
  return row ?? null;
}

// Side effect: queued → processing (or stays processing on a retry); null when already finished.
export async function startImport(db: Executor, id: string): Promise<ContactImportRow | null> {
  const [row] = await db
    .update(contactImports)
    .set({ status: 'processing', updatedAt: sql`now()` })
    .where(and(eq(contactImports.id, id), inArray(contactImports.status, ['queued', 'processing'])))
    .returning();
  return row ?? null;
}

export interface ImportProgress {
  processed: number;
  created: number;
  updated: number;
  rejected: number;
  errors: ImportRowError[];
}

/** Moves the checkpoint from `from` to `progress.processed`; false when another run moved it first. */
export async function advanceImport(
  db: Executor,
  id: string,
  from: number,
  progress: ImportProgress,
): Promise<boolean> {
  const rows = await db
    .update(contactImports)
    .set({ ...progress, updatedAt: sql`now()` })
    .where(and(eq(contactImports.id, id), eq(contactImports.status, 'processing'), eq(contactImports.processed, from)))
    .returning({ id: contactImports.id });
  return rows.length === 1;
}

/** Processing → completed or failed (with the rows the file held, when counted); drops the raw upload. */
export async function finishImport(
  db: Executor,
  id: string,
  outcome: ({ status: 'completed' } | { status: 'failed'; failure: string }) & { total?: number },
): Promise<void> {
  await db
    .update(contactImports)
    .set({ ...outcome, source: null, updatedAt: sql`now()`, finishedAt: sql`now()` })
    .where(and(eq(contactImports.id, id), inArray(contactImports.status, ['queued', 'processing'])));
}
