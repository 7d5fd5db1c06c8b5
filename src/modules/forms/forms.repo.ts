import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { listPage } from '../../db/list-page.ts';
import { rowsOf } from '../../db/rows.ts';
import { formChallengesUsed, formSubmissions, forms } from '../../db/schema/index.ts';

export type FormRow = typeof forms.$inferSelect;
export interface FormCounts {
  submissions: number;
  confirmed: number;
}

export async function insertForm(db: Executor, row: typeof forms.$inferInsert): Promise<FormRow> {
  const [created] = await db.insert(forms).values(row).returning();
  return created!;
}

/** A form of the project, or null. */
export async function findForm(db: Executor, projectId: string, id: string): Promise<FormRow | null> {
  const [row] = await db
    .select()
    .from(forms)
    .where(and(eq(forms.projectId, projectId), eq(forms.id, id)));
  return row ?? null;
}

/** A form by id alone (its public page and submissions), or null. */
export async function findPublicForm(db: Executor, id: string): Promise<FormRow | null> {
  const [row] = await db.select().from(forms).where(eq(forms.id, id));
  return row ?? null;
}

export function listForms(db: Executor, projectId: string, page: { limit: number; cursor?: string | undefined }) {
  return listPage(db, forms, eq(forms.projectId, projectId), page);
}

export async function updateForm(
  db: Executor,
  projectId: string,
  id: string,
  patch: Partial<typeof forms.$inferInsert>,
): Promise<FormRow | null> {
  const [row] = await db
    .update(forms)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(forms.projectId, projectId), eq(forms.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteForm(db: Executor, projectId: string, id: string): Promise<FormRow | null> {
  const [row] = await db
    .delete(forms)
    .where(and(eq(forms.projectId, projectId), eq(forms.id, id)))
    .returning();
  return row ?? null;
}

/**
 * Each form's accepted submissions, and those asked to confirm whose contact's double opt-in was confirmed at or
 * after the submission (read from the contact's double opt-in state).
 */
export async function countSubmissions(db: Executor, formIds: string[]): Promise<Map<string, FormCounts>> {
  if (formIds.length === 0) return new Map();
  const ids = sql.join(
    formIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const result = await db.execute(sql`
    SELECT s.form_id, count(*)::int AS submissions,
      count(*) FILTER (WHERE s.double_opt_in AND c.confirmation_status = 'CONFIRMED'
        AND c.confirmed_at >= s.created_at)::int AS confirmed
    FROM form_submissions s LEFT JOIN contacts c ON c.id = s.contact_id
    WHERE s.form_id IN (${ids}) GROUP BY s.form_id`);
  return new Map(
    rowsOf<{ form_id: string; submissions: number; confirmed: number }>(result).map((r) => [
      r.form_id,
      { submissions: Number(r.submissions), confirmed: Number(r.confirmed) },
    ]),
  );
}

export async function insertSubmission(db: Executor, row: typeof formSubmissions.$inferInsert): Promise<void> {
  await db.insert(formSubmissions).values(row);
}

/** Counts one submission caught by the honeypot. */
export async function countSpam(db: Executor, id: string): Promise<void> {
  await db
    .update(forms)
    .set({ spam: sql`${forms.spam} + 1` })
    .where(eq(forms.id, id));
}

/**
 * Marks a proof-of-work challenge used; false when it already was (a replay). Also forgets challenges that have
 * expired, which verification refuses anyway.
 */
export async function useChallenge(db: Executor, signature: string, expiresAt: Date): Promise<boolean> {
  await db.execute(sql`DELETE FROM form_challenges_used WHERE expires_at < now()`);
  const rows = await db
    .insert(formChallengesUsed)
    .values({ signature, expiresAt })
    .onConflictDoNothing()
    .returning({ signature: formChallengesUsed.signature });
  return rows.length > 0;
}
