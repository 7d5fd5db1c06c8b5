import { and, eq, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { listPage } from '../../db/list-page.ts';
import { layouts } from '../../db/schema/layouts.ts';

export type LayoutRow = typeof layouts.$inferSelect;

export async function insertLayout(db: Executor, row: typeof layouts.$inferInsert): Promise<LayoutRow> {
  const [created] = await db.insert(layouts).values(row).returning();
  return created!;
}

export async function findLayout(db: Executor, projectId: string, id: string): Promise<LayoutRow | null> {
  const [row] = await db
    .select()
    .from(layouts)
    .where(and(eq(layouts.projectId, projectId), eq(layouts.id, id)));
  return row ?? null;
}

/** The layout row, locked until the transaction ends (a change or delete waits for saves that use it). */
export async function lockLayout(db: Executor, projectId: string, id: string): Promise<LayoutRow | null> {
  const [row] = await db
    .select()
    .from(layouts)
    .where(and(eq(layouts.projectId, projectId), eq(layouts.id, id)))
    .for('update');
  return row ?? null;
}

export async function findDefaultLayout(db: Executor, projectId: string): Promise<LayoutRow | null> {
  const [row] = await db
    .select()
    .from(layouts)
    .where(and(eq(layouts.projectId, projectId), eq(layouts.isDefault, true)));
  return row ?? null;
}

export function listLayouts(db: Executor, projectId: string, opts: { limit: number; cursor?: string | undefined }) {
  return listPage(db, layouts, eq(layouts.projectId, projectId), opts);
}

export async function updateLayout(
  db: Executor,
  projectId: string,
  id: string,
  patch: Partial<Pick<LayoutRow, 'name' | 'format' | 'body'>>,
): Promise<LayoutRow | null> {
  const [row] = await db
    .update(layouts)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(layouts.projectId, projectId), eq(layouts.id, id)))
    .returning();
  return row ?? null;
}

/** Makes `id` the project's only default layout (null: none is). */
export async function setDefaultLayout(db: Executor, projectId: string, id: string | null): Promise<void> {
  await db
    .update(layouts)
    .set({ isDefault: false })
    .where(and(eq(layouts.projectId, projectId), eq(layouts.isDefault, true), ...(id ? [ne(layouts.id, id)] : [])));
  if (id)
    await db
      .update(layouts)
      .set({ isDefault: true })
      .where(and(eq(layouts.projectId, projectId), eq(layouts.id, id)));
}

export async function deleteLayout(db: Executor, projectId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(layouts)
    .where(and(eq(layouts.projectId, projectId), eq(layouts.id, id)))
    .returning({ id: layouts.id });
  return rows.length === 1;
}
