// Named queries of contact_properties: the declared keys of contacts' data.
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { listPage } from '../../db/list-page.ts';
import { contactProperties } from '../../db/schema/index.ts';

export type ContactPropertyRow = typeof contactProperties.$inferSelect;

export async function insertContactProperty(
  db: Executor,
  row: typeof contactProperties.$inferInsert,
): Promise<ContactPropertyRow> {
  const [created] = await db.insert(contactProperties).values(row).returning();
  return created!;
}

export async function findContactProperty(
  db: Executor,
  projectId: string,
  id: string,
): Promise<ContactPropertyRow | null> {
  const [row] = await db
    .select()
    .from(contactProperties)
    .where(and(eq(contactProperties.projectId, projectId), eq(contactProperties.id, id)));
  return row ?? null;
}

/** A newest-first page of the project's declared keys, with the total. */
export function listContactProperties(db: Executor, projectId: string, page: { limit: number; cursor?: string }) {
  return listPage(db, contactProperties, eq(contactProperties.projectId, projectId), page);
}

/** Every declared key of the project (templates render with their fallbacks). */
export function allContactProperties(db: Executor, projectId: string): Promise<ContactPropertyRow[]> {
  return db.select().from(contactProperties).where(eq(contactProperties.projectId, projectId));
}

export async function updateContactPropertyFallback(
  db: Executor,
  projectId: string,
  id: string,
  fallback: string | number | null,
): Promise<ContactPropertyRow | null> {
  const [row] = await db
    .update(contactProperties)
    .set({ fallback, updatedAt: new Date() })
    .where(and(eq(contactProperties.projectId, projectId), eq(contactProperties.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteContactPropertyRow(db: Executor, projectId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(contactProperties)
    .where(and(eq(contactProperties.projectId, projectId), eq(contactProperties.id, id)))
    .returning({ id: contactProperties.id });
  return rows.length > 0;
}
