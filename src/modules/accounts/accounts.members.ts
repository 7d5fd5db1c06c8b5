// Memberships: who is in a project with which role, and the rules for changing that.
import type { Executor } from '../../db/client.ts';
import type { MemberRole } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { isId, newId } from '../../lib/ids.ts';
import { aRole, roleRank, type Role } from '../../plugins/types.ts';
import { recordAudit } from '../audit/index.ts';
import * as repo from './accounts.repo.ts';

export async function memberProjectAccess(db: Executor, projectId: string, userId: string) {
  return repo.projectAccess(db, projectId, userId);
}

export async function findUserByEmail(db: Executor, email: string) {
  return repo.findUserByEmail(db, email);
}

/** A new user (an accepted invite); null when the address has an account already. */
export async function createUser(db: Executor, user: { email: string; name: string; passwordHash: string | null }) {
  const created = await repo.insertUser(db, { id: newId(), ...user });
  if (created)
    await recordAudit(db, {
      action: 'user.created',
      resourceType: 'user',
      resourceId: created.id,
      actor: { type: 'user', id: created.id, label: created.email },
    });
  return created;
}

/** A project's team: each member with their role, two-factor and when they joined and were last active. */
export async function membersOf(db: Executor, projectId: string) {
  const rows = await repo.listMembers(db, projectId);
  return rows.map(({ membership, user }) => ({
    userId: user.id,
    email: user.email,
    name: user.name,
    role: membership.role,
    twoFactor: user.totpSecret !== null,
    joinedAt: iso(membership.createdAt),
    lastActiveAt: user.lastActiveAt ? iso(user.lastActiveAt) : null,
  }));
}

/** Makes the user a member (or changes their role to the one an invite gives). */
export async function addMember(db: Executor, opts: { projectId: string; userId: string; role: MemberRole }) {
  await repo.upsertMembership(db, opts);
  await recordAudit(db, {
    action: 'member.added',
    resourceType: 'member',
    resourceId: opts.userId,
    projectId: opts.projectId,
    changes: { role: [null, opts.role] },
  });
}

/** Who is asking: their user id and role in the project. */
export interface Acting {
  userId: string;
  role: Role;
}

async function lockedMembers(db: Executor, projectId: string, userId: string) {
  const members = await repo.listMembers(db, projectId, { forUpdate: true });
  const target = isId(userId) ? members.find((m) => m.user.id === userId) : undefined;
  if (!target) throw notFound('Member');
  return { members, target };
}

const owners = (members: { membership: { role: MemberRole } }[]) =>
  members.filter((m) => m.membership.role === 'owner').length;

/**
 * Changes a member's role: nobody raises their own role, an admin does not touch an owner or make one, and the last
 * owner stays an owner (409).
 */
export async function setMemberRole(
  db: Executor,
  opts: { projectId: string; acting: Acting; userId: string; role: MemberRole },
) {
  return db.transaction(async (tx) => {
    const { members, target } = await lockedMembers(tx, opts.projectId, opts.userId);
    const before = target.membership.role;
    if (before === opts.role) return (await membersOf(tx, opts.projectId)).find((m) => m.userId === opts.userId)!;
    if (opts.userId === opts.acting.userId && roleRank(opts.role) > roleRank(before))
      throw new AppError('FORBIDDEN', 'Nobody can raise their own role', { suggestion: 'Ask another owner.' });
    if (opts.acting.role !== 'owner' && (before === 'owner' || opts.role === 'owner')) {
      throw new AppError(
        'FORBIDDEN',
        `You are ${aRole(opts.acting.role)} of this project: ` +
          "only an owner can change an owner's role or make someone an owner",
      );
    }
    if (before === 'owner' && owners(members) === 1)
      throw new AppError('CONFLICT', 'This is the last owner of the project: make someone else an owner first');
    await repo.updateMembershipRole(tx, opts.projectId, opts.userId, opts.role);
    await recordAudit(tx, {
      action: 'member.role_changed',
      resourceType: 'member',
      resourceId: opts.userId,
      projectId: opts.projectId,
      changes: { role: [before, opts.role] },
    });
    return (await membersOf(tx, opts.projectId)).find((m) => m.userId === opts.userId)!;
  });
}

/** Removes a member (or lets one leave): an admin does not remove an owner, and the last owner cannot go (409). */
export async function removeMember(db: Executor, opts: { projectId: string; acting: Acting; userId: string }) {
  return db.transaction(async (tx) => {
    const { members, target } = await lockedMembers(tx, opts.projectId, opts.userId);
    const leaving = opts.userId === opts.acting.userId;
    if (!leaving && roleRank(opts.acting.role) < roleRank('admin'))
      throw new AppError(
        'FORBIDDEN',
        `You are ${aRole(opts.acting.role)} of this project: only owners and admins remove members`,
      );
    if (!leaving && target.membership.role === 'owner' && opts.acting.role !== 'owner')
      throw new AppError('FORBIDDEN', 'You are an admin of this project: only an owner can remove an owner');
    if (target.membership.role === 'owner' && owners(members) === 1)
      throw new AppError('CONFLICT', 'This is the last owner of the project: make someone else an owner first');
    await repo.deleteMembership(tx, opts.projectId, opts.userId);
    await recordAudit(tx, {
      action: leaving ? 'member.left' : 'member.removed',
      resourceType: 'member',
      resourceId: opts.userId,
      projectId: opts.projectId,
      changes: { role: [target.membership.role, null] },
    });
    return { userId: opts.userId, removed: true as const };
  });
}
