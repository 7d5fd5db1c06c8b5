import type { AppContext } from '../../context.types.ts';
import type { MemberRole } from '../../db/schema/index.ts';
import { normalizeEmail } from '../../lib/email-address.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { escapeHtml } from '../../lib/hosted-page.ts';
import { iso } from '../../lib/http.ts';
import { isId, newId } from '../../lib/ids.ts';
import { hashSecret } from '../../lib/keys.ts';
import { randomBytes } from 'node:crypto';
import { aRole, type Role } from '../../plugins/types.ts';
import {
  addMember,
  checkPasswordRules,
  createUser,
  findUserByEmail,
  hashPassword,
  sendSystemEmail,
  signInVerified,
  type Client,
} from '../accounts/index.ts';
import { recordAudit } from '../audit/index.ts';
import * as repo from './team.repo.ts';
import { WEEK_MS } from '../../lib/durations.ts';

const INVITE_MS = WEEK_MS;

function inviteView(row: repo.InviteRow) {
  return { id: row.id, email: row.email, role: row.role, createdAt: iso(row.createdAt), expiresAt: iso(row.expiresAt) };
}

/**
 * Invites an address with a role (only an owner invites an owner): the link is mailed, and answered to the inviter too.
 */
export async function createInvite(opts: {
  ctx: AppContext;
  projectId: string;
  projectName: string;
  inviter: { userId: string; email: string; name: string; role: Role };
  email: string;
  role: MemberRole;
}) {
  const { ctx } = opts;
  if (opts.role === 'owner' && opts.inviter.role !== 'owner')
    throw new AppError(
      'FORBIDDEN',
      `You are ${aRole(opts.inviter.role)} of this project: only an owner can invite an owner`,
    );
  const email = normalizeEmail(opts.email);
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const row = await ctx.db.transaction(async (tx) => {
    const created = await repo.insertInvite(tx, {
      id: newId(),
      projectId: opts.projectId,
      email,
      role: opts.role,
      tokenHash: hashSecret(token),
      invitedBy: opts.inviter.userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITE_MS),
    });
    await recordAudit(tx, {
      action: 'invite.created',
      resourceType: 'invite',
      resourceId: created.id,
      projectId: opts.projectId,
      changes: { role: [null, opts.role] },
    });
    return created;
  });
  const inviteUrl = `${ctx.config.publicUrl}/invite#${token}`;
  const who = opts.inviter.name || opts.inviter.email;
  const mailed = await sendSystemEmail(ctx, {
    to: email,
    subject: `${who} invited you to ${opts.projectName} on Herald`,
    text: [
      `${who} (${opts.inviter.email}) invited you to the project "${opts.projectName}" on Herald as ${opts.role}.`,
      '',
      `Accept within 7 days: ${inviteUrl}`,
      '',
    ].join('\n'),
    html:
      `<p>${escapeHtml(who)} (${escapeHtml(opts.inviter.email)}) invited you to the project ` +
      `“${escapeHtml(opts.projectName)}” on Herald as ${opts.role}.</p>` +
      `<p><a href="${escapeHtml(inviteUrl)}">Accept the invitation</a> within 7 days.</p>`,
  });
  return { ...inviteView(row), inviteUrl, mailed };
}

export async function listInvites(opts: { ctx: AppContext; projectId: string }) {
  return (await repo.listOpenInvites(opts.ctx.db, opts.projectId, new Date())).map(inviteView);
}

export async function revokeInvite(opts: { ctx: AppContext; projectId: string; id: string }) {
  return opts.ctx.db.transaction(async (tx) => {
    const row = isId(opts.id) ? await repo.revokeInvite(tx, opts.projectId, opts.id, new Date()) : null;
    if (!row) throw notFound('Invite');
    await recordAudit(tx, {
      action: 'invite.revoked',
      resourceType: 'invite',
      resourceId: row.id,
      projectId: opts.projectId,
    });
    return { id: row.id, revoked: true as const };
  });
}

const gone = () =>
  new AppError('GONE', 'This invitation has been used, was withdrawn or has expired', {
    suggestion: 'Ask the person who invited you for a new one.',
  });

async function openInvite(ctx: AppContext, token: string) {
  const found = await repo.findInviteByHash(ctx.db, hashSecret(token));
  if (!found || found.invite.acceptedAt || found.invite.revokedAt || found.invite.expiresAt <= new Date()) throw gone();
  return found;
}

/**
 * What an invitation is for, for the page that accepts it: the project, the role, and whether the address has an
 * account.
 */
export async function inviteDetails(opts: { ctx: AppContext; token: string }) {
  const { invite, projectName } = await openInvite(opts.ctx, opts.token);
  const existing = await findUserByEmail(opts.ctx.db, invite.email);
  return {
    email: invite.email,
    role: invite.role,
    projectName,
    expiresAt: iso(invite.expiresAt),
    hasAccount: existing !== null,
  };
}

/**
 * Accepts an invitation: a signed-in person joins with its role; otherwise a new account is made from the name and
 * password given and signed in. An address that has an account signs in first.
 */
export async function acceptInvite(opts: {
  ctx: AppContext;
  token: string;
  name?: string | undefined;
  password?: string | undefined;
  signedInUserId: string | null;
  client: Client;
}) {
  const { ctx } = opts;
  const { invite } = await openInvite(ctx, opts.token);
  let passwordHash: string | null = null;
  if (!opts.signedInUserId) {
    if (await findUserByEmail(ctx.db, invite.email))
      throw new AppError('CONFLICT', `${invite.email} has an account already: sign in, then open the invitation again`);
    if (!opts.name) throw validationError('name', 'Your name is needed to make your account', 'required');
    if (opts.password === undefined)
      throw validationError('password', 'A password is needed to make your account', 'required');
    checkPasswordRules(opts.password);
    passwordHash = await hashPassword(opts.password);
  }
  return ctx.db.transaction(async (tx) => {
    if (!(await repo.acceptInvite(tx, invite.id, new Date()))) throw gone();
    let userId = opts.signedInUserId;
    let created = null;
    if (!userId) {
      created = await createUser(tx, { email: invite.email, name: opts.name!, passwordHash });
      if (!created)
        throw new AppError(
          'CONFLICT',
          `${invite.email} has an account already: sign in, then open the invitation again`,
        );
      userId = created.id;
    }
    await addMember(tx, { projectId: invite.projectId, userId, role: invite.role });
    await recordAudit(tx, {
      action: 'invite.accepted',
      resourceType: 'invite',
      resourceId: invite.id,
      projectId: invite.projectId,
    });
    return {
      projectId: invite.projectId,
      signIn: created ? await signInVerified({ db: tx, user: created, method: 'invite', client: opts.client }) : null,
    };
  });
}

/**
 * Accepts every open invitation of an address for a user who proved it (single sign-on); answers the projects joined.
 */
export async function openInvitesOf(opts: { ctx: AppContext; email: string; userId: string }): Promise<string[]> {
  const joined: string[] = [];
  for (const invite of await repo.openInvitesFor(opts.ctx.db, opts.email, new Date())) {
    await opts.ctx.db.transaction(async (tx) => {
      if (!(await repo.acceptInvite(tx, invite.id, new Date()))) return;
      await addMember(tx, { projectId: invite.projectId, userId: opts.userId, role: invite.role });
      await recordAudit(tx, {
        action: 'invite.accepted',
        resourceType: 'invite',
        resourceId: invite.id,
        projectId: invite.projectId,
      });
      joined.push(invite.projectId);
    });
  }
  return joined;
}
