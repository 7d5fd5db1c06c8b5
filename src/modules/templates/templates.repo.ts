import { and, desc, eq, ilike, inArray, isNull, max, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { templates, templateVersions, type TemplateType } from '../../db/schema/templates.ts';
import { listPage } from '../../db/list-page.ts';
import { containsPattern } from '../../lib/text.ts';

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateVersionRow = typeof templateVersions.$inferSelect;

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

export async function insertVersion(db: Executor, row: typeof templateVersions.$inferInsert): Promise<void> {
  await db.insert(templateVersions).values(row);
}

export async function updateVersion(
  db: Executor,
  templateId: string,
  version: number,
  patch: Partial<typeof templateVersions.$inferInsert>,
): Promise<void> {
  await db
    .update(templateVersions)
    .set(patch)
    .where(and(eq(templateVersions.templateId, templateId), eq(templateVersions.version, version)));
}

export async function findVersion(
  db: Executor,
  templateId: string,
  version: number,
): Promise<TemplateVersionRow | null> {
  const [row] = await db
    .select()
    .from(templateVersions)
    .where(and(eq(templateVersions.templateId, templateId), eq(templateVersions.version, version)));
  return row ?? null;
}

/** The highest version number a template has (0 when none). */
export async function lastVersion(db: Executor, templateId: string): Promise<number> {
  const [row] = await db
    .select({ last: max(templateVersions.version) })
    .from(templateVersions)
    .where(eq(templateVersions.templateId, templateId));
  return row?.last ?? 0;
}

/** A template's versions, newest first (at most 500). */
export function listVersions(db: Executor, templateId: string): Promise<TemplateVersionRow[]> {
  return db
    .select()
    .from(templateVersions)
    .where(eq(templateVersions.templateId, templateId))
    .orderBy(desc(templateVersions.version))
    .limit(500);
}

/** Templates whose published content is in a layout: the one named, or (null) the project's default. */
export function findTemplatesUsingLayout(
  db: Executor,
  projectId: string,
  layoutId: string | null,
): Promise<TemplateRow[]> {
  return db
    .select()
    .from(templates)
    .where(
      and(
        eq(templates.projectId, projectId),
        layoutId ? eq(templates.layoutId, layoutId) : and(isNull(templates.layoutId), eq(templates.noLayout, false)),
      ),
    )
    .for('update');
}

/** The first template naming a layout in its published version or its draft, for the 409 of its deletion. */
export async function findTemplateNamingLayout(db: Executor, projectId: string, layoutId: string) {
  const [row] = await db
    .select({ id: templates.id, name: templates.name })
    .from(templates)
    .leftJoin(
      templateVersions,
      and(eq(templateVersions.templateId, templates.id), eq(templateVersions.version, templates.draftVersion)),
    )
    .where(
      and(
        eq(templates.projectId, projectId),
        or(eq(templates.layoutId, layoutId), sql`${templateVersions.snapshot}->>'layoutId' = ${layoutId}`),
      ),
    )
    .limit(1);
  return row ?? null;
}
