import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { apiKeys, projects } from '../../db/schema/index.ts';
import { afterCursor } from '../../lib/pagination.ts';

export type ProjectRow = typeof projects.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

// Side effect: creates a project row.
export async function insertProject(db: Executor, row: { id: string; name: string }): Promise<ProjectRow> {
  const [created] = await db.insert(projects).values(row).returning();
  return created!;
}

export async function findProject(db: Executor, id: string): Promise<ProjectRow | null> {
  const [row] = await db.select().from(projects).where(eq(projects.id, id));
  return row ?? null;
}

export async function listProjects(db: Executor, opts: { limit: number; cursor?: string | undefined }) {
  const rows = await db.select().from(projects)
    .where(afterCursor(projects.createdAt, projects.id, opts.cursor))
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .limit(opts.limit + 1);
  const [total] = await db.select({ n: count() }).from(projects);
  return { rows, total: total?.n ?? 0 };
}

export async function countProjects(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(projects);
  return row?.n ?? 0;
}

// Side effect: renames or disables a project.
export async function updateProject(db: Executor, id: string, patch: { name?: string | undefined; disabled?: boolean | undefined }): Promise<ProjectRow | null> {
  const values = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const [row] = await db.update(projects).set({ ...values, updatedAt: sql`now()` }).where(eq(projects.id, id)).returning();
  return row ?? null;
}

// Side effect: stores a new key (its hash only).
export async function insertApiKey(db: Executor, row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [created] = await db.insert(apiKeys).values(row).returning();
  return created!;
}

export async function listApiKeys(db: Executor, projectId: string): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.projectId, projectId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

// Side effect: revokes a key; null when it does not exist in that project or is already revoked.
export async function revokeApiKey(db: Executor, projectId: string, keyId: string): Promise<ApiKeyRow | null> {
  const [row] = await db.update(apiKeys).set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
    .returning();
  return row ?? null;
}

/** The live key with this hash and its project, for authentication. */
export async function findKeyByHash(db: Executor, keyHash: string) {
  const [row] = await db.select({ key: apiKeys, project: projects })
    .from(apiKeys)
    .innerJoin(projects, eq(projects.id, apiKeys.projectId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
  return row ?? null;
}
