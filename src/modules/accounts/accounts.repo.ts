// Every query on people's tables: users, their sessions, one-time tokens, recovery codes, failed sign-ins and
// memberships.
import { and, asc, count, eq, gt, gte, inArray, isNull, lt, max, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import {
  accountTokens,
  memberships,
  projects,
  projectSettings,
  recoveryCodes,
  signInFailures,
  users,
  userSessions,
  type MemberRole,
} from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof userSessions.$inferSelect;
export type TokenRow = typeof accountTokens.$inferSelect;

export async function countUsers(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

export async function findUser(db: Executor, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** Creates a user; null when the address has an account already. */
export async function insertUser(db: Executor, row: typeof users.$inferInsert): Promise<UserRow | null> {
  const [created] = await db.insert(users).values(row).onConflictDoNothing().returning();
  return created ?? null;
}

/** Changes a user's row. */
export async function updateUser(
  db: Executor,
  id: string,
  set: Partial<typeof users.$inferInsert>,
): Promise<UserRow | null> {
  const [row] = await db.update(users).set(set).where(eq(users.id, id)).returning();
  return row ?? null;
}

/** A new session. */
export async function insertSession(db: Executor, row: typeof userSessions.$inferInsert): Promise<SessionRow> {
  const [created] = await db.insert(userSessions).values(row).returning();
  return created!;
}

/**
 * The live session with this token hash and its user: not past its idle or absolute end, nor begun before the user's
 * cut-off.
 */
export async function findLiveSession(
  db: Executor,
  tokenHash: string,
  idleSince: Date,
  now: Date,
): Promise<{ session: SessionRow; user: UserRow } | null> {
  const [row] = await db
    .select({ session: userSessions, user: users })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .where(
      and(
        eq(userSessions.tokenHash, tokenHash),
        gt(userSessions.expiresAt, now),
        gt(userSessions.lastSeenAt, idleSince),
        gte(userSessions.createdAt, users.sessionsValidAfter),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Marks a session and its user active now. */
export async function touchSession(db: Executor, session: SessionRow, now: Date): Promise<void> {
  await db.update(userSessions).set({ lastSeenAt: now }).where(eq(userSessions.id, session.id));
  await db.update(users).set({ lastActiveAt: now }).where(eq(users.id, session.userId));
}

/** Ends one session. */
export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.delete(userSessions).where(eq(userSessions.id, id));
}

/** Ends every session of a user (but `keep`). */
export async function deleteUserSessions(db: Executor, userId: string, keep?: string): Promise<void> {
  await db
    .delete(userSessions)
    .where(and(eq(userSessions.userId, userId), keep ? sql`${userSessions.id} <> ${keep}` : undefined));
}

/** Removes sessions past their end. */
export async function deleteEndedSessions(db: Executor, idleSince: Date, now: Date): Promise<number> {
  const rows = await db
    .delete(userSessions)
    .where(or(lt(userSessions.expiresAt, now), lt(userSessions.lastSeenAt, idleSince)))
    .returning({ id: userSessions.id });
  return rows.length;
}

/** A new one-time token. */
export async function insertToken(db: Executor, row: typeof accountTokens.$inferInsert): Promise<void> {
  await db.insert(accountTokens).values(row);
}

export async function findToken(db: Executor, tokenHash: string): Promise<TokenRow | null> {
  const [row] = await db.select().from(accountTokens).where(eq(accountTokens.tokenHash, tokenHash)).limit(1);
  return row ?? null;
}

/** Whether a setup token was ever made. */
export async function hasSetupToken(db: Executor): Promise<boolean> {
  const [row] = await db
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(eq(accountTokens.kind, 'setup'))
    .limit(1);
  return row !== undefined;
}

// Side effect: uses a token once; false when it was used already (another request won).
export async function useToken(db: Executor, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(and(eq(accountTokens.id, id), isNull(accountTokens.usedAt)))
    .returning({ id: accountTokens.id });
  return rows.length === 1;
}

// Side effect: uses up every open token of a kind (every setup token once a user exists; a user's older reset links).
export async function useTokensOf(
  db: Executor,
  kind: TokenRow['kind'],
  userId: string | null,
  now: Date,
): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.kind, kind),
        userId ? eq(accountTokens.userId, userId) : undefined,
        isNull(accountTokens.usedAt),
      ),
    );
}

/** Deletes tokens used or expired a day ago. */
export async function deleteOldTokens(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(accountTokens)
    .where(or(lt(accountTokens.usedAt, before), lt(accountTokens.expiresAt, before)))
    .returning({ id: accountTokens.id });
  return rows.length;
}

/** Replaces a user's recovery codes. */
export async function replaceRecoveryCodes(db: Executor, userId: string, codeHashes: string[]): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (codeHashes.length > 0)
    await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

// Side effect: uses one recovery code; false when there is no such unused code.
export async function useRecoveryCode(db: Executor, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ userId: recoveryCodes.userId });
  return rows.length === 1;
}

/** Counts a failed sign-in against each subject. */
export async function insertFailures(db: Executor, subjects: string[], at: Date): Promise<void> {
  await db.insert(signInFailures).values(subjects.map((subject) => ({ subject, at })));
}

/** For each subject, its failures since `since` and the latest one's time. */
export async function failuresSince(
  db: Executor,
  subjects: string[],
  since: Date,
): Promise<Map<string, { n: number; latest: Date }>> {
  const rows = await db
    .select({ subject: signInFailures.subject, n: count(), latest: max(signInFailures.at) })
    .from(signInFailures)
    .where(and(inArray(signInFailures.subject, subjects), gt(signInFailures.at, since)))
    .groupBy(signInFailures.subject);
  return new Map(rows.map((row) => [row.subject, { n: row.n, latest: row.latest ?? since }]));
}

/** Forgets a subject's failures (a successful sign-in clears the email's count). */
export async function clearFailures(db: Executor, subject: string): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.subject, subject));
}

/** Deletes failures older than `before`. */
export async function deleteOldFailures(db: Executor, before: Date): Promise<number> {
  return (await db.delete(signInFailures).where(lt(signInFailures.at, before)).returning({ s: signInFailures.subject }))
    .length;
}

export interface ProjectAccess {
  projectId: string;
  name: string;
  disabled: boolean;
  role: MemberRole | null;
  requireTwoFactor: boolean;
}

/** The project with the user's role in it (null: not a member), or null when there is no such project. */
export async function projectAccess(db: Executor, projectId: string, userId: string): Promise<ProjectAccess | null> {
  const [row] = await db
    .select({
      projectId: projects.id,
      name: projects.name,
      disabled: projects.disabled,
      role: memberships.role,
      requireTwoFactor: sql<boolean>`coalesce(${projectSettings.requireTwoFactor}, false)`,
    })
    .from(projects)
    .leftJoin(memberships, and(eq(memberships.projectId, projects.id), eq(memberships.userId, userId)))
    .leftJoin(projectSettings, eq(projectSettings.projectId, projects.id))
    .where(eq(projects.id, projectId))
    .limit(1);
  return row ?? null;
}

/** The projects a user may open with their role: all of them (as owner where not a member) for instance admins. */
export async function projectsOf(
  db: Executor,
  userId: string,
  isAdmin: boolean,
): Promise<{ id: string; name: string; role: MemberRole }[]> {
  const rows = await db
    .select({ id: projects.id, name: projects.name, role: memberships.role })
    .from(projects)
    .leftJoin(memberships, and(eq(memberships.projectId, projects.id), eq(memberships.userId, userId)))
    .where(isAdmin ? undefined : sql`${memberships.userId} is not null`)
    .orderBy(asc(projects.createdAt));
  return rows.map((row) => ({ id: row.id, name: row.name, role: row.role ?? 'owner' }));
}

export async function allProjectIds(db: Executor): Promise<string[]> {
  return (await db.select({ id: projects.id }).from(projects)).map((row) => row.id);
}

export type MembershipRow = typeof memberships.$inferSelect;

/** Makes the user a member with the role, or changes the role they have. */
export async function upsertMembership(
  db: Executor,
  row: { projectId: string; userId: string; role: MemberRole },
): Promise<void> {
  await db
    .insert(memberships)
    .values(row)
    .onConflictDoUpdate({ target: [memberships.projectId, memberships.userId], set: { role: row.role } });
}

/** A project's members with their accounts, locked when `forUpdate` (role changes check the owners they leave). */
export async function listMembers(db: Executor, projectId: string, opts: { forUpdate?: boolean } = {}) {
  const query = db
    .select({ membership: memberships, user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.projectId, projectId))
    .orderBy(asc(memberships.createdAt));
  return opts.forUpdate ? query.for('update', { of: memberships }) : query;
}

/** Changes a member's role. */
export async function updateMembershipRole(
  db: Executor,
  projectId: string,
  userId: string,
  role: MemberRole,
): Promise<void> {
  await db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.projectId, projectId), eq(memberships.userId, userId)));
}

/** Removes a member. */
export async function deleteMembership(db: Executor, projectId: string, userId: string): Promise<void> {
  await db.delete(memberships).where(and(eq(memberships.projectId, projectId), eq(memberships.userId, userId)));
}

/** Every user, oldest first (instance admins' list; a few hundred at most on one instance). */
export async function listUsers(db: Executor): Promise<UserRow[]> {
  return db.select().from(users).orderBy(asc(users.createdAt)).limit(10_000);
}

/** The projects where this user is the only owner. */
export async function projectsOnlyOwnedBy(db: Executor, userId: string): Promise<string[]> {
  const result = await db.execute(sql`
    SELECT m.project_id FROM memberships m
    WHERE m.user_id = ${userId} AND m.role = 'owner'
      AND NOT EXISTS (
        SELECT 1 FROM memberships o WHERE o.project_id = m.project_id AND o.role = 'owner' AND o.user_id <> ${userId}
      )`);
  return rowsOf<{ project_id: string }>(result).map((row) => row.project_id);
}

/** Deletes a user, with their sessions, memberships, links and recovery codes. */
export async function deleteUser(db: Executor, id: string): Promise<UserRow | null> {
  const [row] = await db.delete(users).where(eq(users.id, id)).returning();
  return row ?? null;
}
