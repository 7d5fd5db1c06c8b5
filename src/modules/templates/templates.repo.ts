import { and, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { templates, type TemplateType } from '../../db/schema/templates.ts';
import { listPage } from '../../db/list-page.ts';
import { containsPattern } from '../../lib/text.ts';

export type TemplateRow = typeof templates.$inferSelect;

/** Creates a template. */
export async function insertTemplate(db: Executor, row: typeof templates.$inferInsert): Promise<TemplateRow> {
  const [created] = await db.insert(templates).values(row).returning();
  return created!;
}

export async function findTemplate(db: Executor, projectId: string, id: string): Promise<TemplateRow | null> {
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.projectId, projectId), eq(templates.id, id)));
  return row ?? null;
}

// Side effect: share-locks the templates of the project among `ids` (a workflow definition names them), so none
// is deleted before the caller's definition commits; by id.
export async function findTemplatesByIds(
  db: Executor,
  projectId: string,
  ids: string[],
): Promise<Map<string, TemplateRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(templates)
    .where(and(eq(templates.projectId, projectId), inArray(templates.id, ids)))
    .for('share');
  return new Map(rows.map((row) => [row.id, row]));
}

export async function listTemplates(
  db: Executor,
  projectId: string,
  opts: { limit: number; cursor?: string | undefined; type?: TemplateType | undefined; search?: string | undefined },
) {
  const filters: (SQL | undefined)[] = [
    eq(templates.projectId, projectId),
    opts.type ? eq(templates.type, opts.type) : undefined,
    opts.search ? ilike(templates.name, containsPattern(opts.search)) : undefined,
  ];
  return listPage(db, templates, and(...filters), opts);
}

/** Updates the given fields of a template. */
export async function updateTemplate(
  db: Executor,
  projectId: string,
  id: string,
  patch: Partial<typeof templates.$inferInsert>,
): Promise<TemplateRow | null> {
  const [row] = await db
    .update(templates)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(templates.projectId, projectId), eq(templates.id, id)))
    .returning();
  return row ?? null;
}

/** Locks the template row until the transaction ends (a delete waits for definitions naming it). */
export async function lockTemplate(tx: Executor, projectId: string, id: string): Promise<TemplateRow | null> {
  const [row] = await tx
    .select()
    .from(templates)
    .where(and(eq(templates.projectId, projectId), eq(templates.id, id)))
    .for('update');
  return row ?? null;
}

/** Deletes a template. */
export async function deleteTemplate(db: Executor, projectId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(templates)
    .where(and(eq(templates.projectId, projectId), eq(templates.id, id)))
    .returning({ id: templates.id });
  return rows.length === 1;
}
