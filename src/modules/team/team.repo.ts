// Every query on invites.
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { invites, projects } from '../../db/schema/index.ts';

export type InviteRow = typeof invites.$inferSelect;

/** A new invite. */
export async function insertInvite(db: Executor, row: typeof invites.$inferInsert): Promise<InviteRow> {
  const [created] = await db.insert(invites).values(row).returning();
  return created!;
}

/** A project's open invites (not accepted, revoked or expired), newest first. */
export async function listOpenInvites(db: Executor, projectId: string, now: Date): Promise<InviteRow[]> {
  return db
    .select()
    .from(invites)
    .where(
      and(
        eq(invites.projectId, projectId),
        isNull(invites.acceptedAt),
        isNull(invites.revokedAt),
        gt(invites.expiresAt, now),
      ),
    )
    .orderBy(desc(invites.createdAt))
    .limit(500);
}

export async function findInviteByHash(
  db: Executor,
  tokenHash: string,
): Promise<{ invite: InviteRow; projectName: string } | null> {
  const [row] = await db
    .select({ invite: invites, projectName: projects.name })
    .from(invites)
    .innerJoin(projects, eq(projects.id, invites.projectId))
    .where(eq(invites.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

/** Revokes an open invite; null when there is none with the id. */
export async function revokeInvite(db: Executor, projectId: string, id: string, now: Date): Promise<InviteRow | null> {
  const [row] = await db
    .update(invites)
    .set({ revokedAt: now })
    .where(
      and(eq(invites.id, id), eq(invites.projectId, projectId), isNull(invites.acceptedAt), isNull(invites.revokedAt)),
    )
    .returning();
  return row ?? null;
}

/** Marks an invite accepted; false when another request used it first. */
export async function acceptInvite(db: Executor, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(invites)
    .set({ acceptedAt: now })
    .where(and(eq(invites.id, id), isNull(invites.acceptedAt), isNull(invites.revokedAt)))
    .returning({ id: invites.id });
  return rows.length === 1;
}

/** The open invites of an address (single sign-on accepts them), oldest first. */
export async function openInvitesFor(db: Executor, email: string, now: Date): Promise<InviteRow[]> {
  return db
    .select()
    .from(invites)
    .where(
      and(eq(invites.email, email), isNull(invites.acceptedAt), isNull(invites.revokedAt), gt(invites.expiresAt, now)),
    )
    .orderBy(invites.createdAt);
}
