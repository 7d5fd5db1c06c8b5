import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { projectSettings } from '../../db/schema/index.ts';

export type SettingsRow = typeof projectSettings.$inferSelect;
export type SettingsPatch = Partial<Omit<SettingsRow, 'projectId' | 'updatedAt'>>;

export async function findSettings(db: Executor, projectId: string): Promise<SettingsRow | null> {
  const [row] = await db.select().from(projectSettings).where(eq(projectSettings.projectId, projectId));
  return row ?? null;
}

/** Creates the project's settings row with the defaults and `patch`, or changes the row there is. */
export async function upsertSettings(db: Executor, projectId: string, patch: SettingsPatch): Promise<SettingsRow> {
  const values = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as SettingsPatch;
  const [row] = await db
    .insert(projectSettings)
    .values({ projectId, ...values })
    .onConflictDoUpdate({ target: projectSettings.projectId, set: { ...values, updatedAt: sql`now()` } })
    .returning();
  return row!;
}
