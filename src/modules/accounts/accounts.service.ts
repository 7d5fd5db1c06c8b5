import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import type { MemberRole } from '../../db/schema/index.ts';
import { normalizeEmail } from '../../lib/email-address.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { escapeHtml } from '../../lib/hosted-page.ts';
import { iso } from '../../lib/http.ts';
import { isId, newId } from '../../lib/ids.ts';
import type { Actor } from '../../lib/request-origin.ts';
import { seal, unseal } from '../../lib/seal.ts';
import type { SignedIn } from '../../plugins/types.ts';
import { recordAudit } from '../audit/index.ts';
import { sendSystemEmail, systemSenderProblem } from './accounts.mail.ts';
import { checkPasswordRules, hashPassword, verifyPassword } from './accounts.passwords.ts';
import * as repo from './accounts.repo.ts';
import { hashSecret, newSecret } from './accounts.tokens.ts';
import { HOUR_MS as HOUR } from '../../lib/durations.ts';
import {
  checkTotp,
  looksLikeRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  recoveryCodeHash,
} from './accounts.totp.ts';

/** A session ends 30 days after it began, however active. */
export const SESSION_MAX_MS = 30 * 24 * HOUR;
/**
 * Failed sign-ins are counted over 15 minutes: 5 for one email, 30 from one client address, then 429 for 15 minutes.
 */
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 30;
const RESET_MS = HOUR;
const SET_PASSWORD_MS = 24 * HOUR;
const TOTP_PURPOSE = 'totp';

/** A user as the API shows it (never a hash, a secret or a code). */
export function userView(row: repo.UserRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    isAdmin: row.isAdmin,
    twoFactor: row.totpSecret !== null,
    createdAt: iso(row.createdAt),
    lastSignInAt: row.lastSignInAt ? iso(row.lastSignInAt) : null,
  };
}

const actorOf = (user: Pick<repo.UserRow, 'id' | 'email'>): Actor => ({ type: 'user', id: user.id, label: user.email });

/** Where a request came from, for the session row. */
export interface Client {
  ip: string | null;
  userAgent: string | null;
}

/** A new session: the cookie's secret (for the caller to set) and the CSRF token. */
export interface StartedSession {
  token: string;
  csrfToken: string;
  startedAt: Date;
  expiresAt: Date;
}

async function startSession(db: Executor, userId: string, method: string, client: Client): Promise<StartedSession> {
  const { secret, hash } = newSecret();
  const csrfToken = newSecret().secret;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SESSION_MAX_MS);
  await repo.insertSession(db, {
    id: newId(),
    tokenHash: hash,
    userId,
    csrfToken,
    method,
    ip: client.ip,
    userAgent: client.userAgent?.slice(0, 512) ?? null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
  });
  await repo.updateUser(db, userId, { lastSignInAt: now, lastActiveAt: now });
  return { token: secret, csrfToken, startedAt: now, expiresAt };
}

/** What a signed-in person sees of themselves: their account and their projects with their role in each. */
export async function sessionView(db: Executor, user: repo.UserRow) {
  return { user: userView(user), projects: await repo.projectsOf(db, user.id, user.isAdmin) };
}

/** The live session of a cookie's token, marked active at most once a minute; null when it has ended. */
export async function findSession(ctx: AppContext, token: string): Promise<SignedIn | null> {
  if (token.length > 100) return null;
  const now = new Date();
  const found = await repo.findLiveSession(
    ctx.db,
    hashSecret(token),
    new Date(now.getTime() - ctx.config.sessionIdleHours * HOUR),
    now,
  );
  if (!found) return null;
  if (now.getTime() - found.session.lastSeenAt.getTime() > 60_000) await repo.touchSession(ctx.db, found.session, now);
  const { user } = found;
  return {
    sessionId: found.session.id,
    csrfToken: found.session.csrfToken,
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      isAdmin: user.isAdmin,
      twoFactor: user.totpSecret !== null,
    },
  };
}

export async function getUser(db: Executor, id: string): Promise<repo.UserRow> {
  const user = await repo.findUser(db, id);
  if (!user) throw new AppError('UNAUTHORIZED', 'Your session has ended: sign in again');
  return user;
}

// ---- First run ----

/**
 * On a start with no user and no setup link made yet, a setup link's secret (printed once beside the keys); it
 * stays good until a user exists.
 */
export async function ensureSetupToken(db: Executor): Promise<string | null> {
  if ((await repo.countUsers(db)) > 0 || (await repo.hasSetupToken(db))) return null;
  const { secret, hash } = newSecret();
  await repo.insertToken(db, { id: newId(), kind: 'setup', tokenHash: hash });
  return secret;
}

/** The first user, from the setup link: an instance admin and owner of every project, signed in. */
export async function setup(opts: {
  ctx: AppContext;
  token: string;
  email: string;
  name: string;
  password: string;
  client: Client;
}) {
  checkPasswordRules(opts.password);
  const passwordHash = await hashPassword(opts.password);
  return opts.ctx.db.transaction(async (tx) => {
    const token = await repo.findToken(tx, hashSecret(opts.token));
    if (!token || token.kind !== 'setup' || token.usedAt || (await repo.countUsers(tx)) > 0) {
      throw new AppError('GONE', 'This setup link has been used: Herald has a user already', {
        suggestion: 'Sign in, or ask an instance admin to invite you.',
      });
    }
    const user = await repo.insertUser(tx, {
      id: newId(),
      email: normalizeEmail(opts.email),
      name: opts.name,
      passwordHash,
      isAdmin: true,
    });
    if (!user) throw new AppError('GONE', 'This setup link has been used: Herald has a user already');
    await repo.useTokensOf(tx, 'setup', null, new Date());
    const projectIds = await repo.allProjectIds(tx);
    for (const projectId of projectIds) await repo.upsertMembership(tx, { projectId, userId: user.id, role: 'owner' });
    const actor = actorOf(user);
    await recordAudit(
      tx,
      { action: 'user.created', resourceType: 'user', resourceId: user.id, actor, changes: { isAdmin: [null, true] } },
      ...projectIds.map((projectId) => ({
        action: 'member.added',
        resourceType: 'member',
        resourceId: user.id,
        projectId,
        actor,
        changes: { role: [null, 'owner'] } as Record<string, [unknown, unknown]>,
      })),
    );
    return signInVerified({ db: tx, user, method: 'setup', client: opts.client });
  });
}

/** A user made by the CLI (or an admin), with a one-time set-password link valid 24 h. */
export async function createUserWithLink(opts: {
  ctx: AppContext;
  email: string;
  name?: string | undefined;
  isAdmin: boolean;
  projectId?: string | undefined;
  role?: MemberRole | undefined;
}) {
  const email = normalizeEmail(opts.email);
  return opts.ctx.db.transaction(async (tx) => {
    const user = await repo.insertUser(tx, {
      id: newId(),
      email,
      name: opts.name ?? email.split('@')[0]!,
      isAdmin: opts.isAdmin,
    });
    if (!user)
      throw new AppError('CONFLICT', `A user with the email ${email} exists already`, {
        suggestion: 'Give them a password link with `herald users reset-password --email E`.',
      });
    await recordAudit(tx, {
      action: 'user.created',
      resourceType: 'user',
      resourceId: user.id,
      changes: { isAdmin: [null, opts.isAdmin] },
    });
    if (opts.projectId) {
      const access = await repo.projectAccess(tx, opts.projectId, user.id);
      if (!access) throw new AppError('NOT_FOUND', 'Project not found');
      await repo.upsertMembership(tx, { projectId: opts.projectId, userId: user.id, role: opts.role ?? 'viewer' });
      await recordAudit(tx, {
        action: 'member.added',
        resourceType: 'member',
        resourceId: user.id,
        projectId: opts.projectId,
        changes: { role: [null, opts.role ?? 'viewer'] },
      });
    }
    const link = await newPasswordLink(opts.ctx, tx, user.id, 'set_password');
    return { user: userView(user), setPasswordUrl: link.url, expiresAt: iso(link.expiresAt) };
  });
}

async function newPasswordLink(ctx: AppContext, db: Executor, userId: string, kind: 'set_password' | 'reset') {
  const { secret, hash } = newSecret();
  const now = new Date();
  await repo.useTokensOf(db, kind, userId, now);
  const expiresAt = new Date(now.getTime() + (kind === 'reset' ? RESET_MS : SET_PASSWORD_MS));
  await repo.insertToken(db, { id: newId(), kind, tokenHash: hash, userId, expiresAt });
  return { url: `${ctx.config.publicUrl}/reset-password#${secret}`, expiresAt };
}

/** The CLI's password reset for a user (where no system sender can mail one): a one-time link valid 24 h. */
export async function resetLinkFor(opts: { ctx: AppContext; email: string }) {
  const user = await repo.findUserByEmail(opts.ctx.db, normalizeEmail(opts.email));
  if (!user) throw new AppError('NOT_FOUND', `No user has the email ${opts.email}`);
  return opts.ctx.db.transaction(async (tx) => {
    await recordAudit(tx, { action: 'user.password_reset_requested', resourceType: 'user', resourceId: user.id });
    const link = await newPasswordLink(opts.ctx, tx, user.id, 'set_password');
    return { user: userView(user), setPasswordUrl: link.url, expiresAt: iso(link.expiresAt) };
  });
}

export async function listUsers(db: Executor) {
  return (await repo.listUsers(db)).map(userView);
}

/** Removes a person from the instance (every session ends); the last owner of a project stays (409). */
export async function deleteUser(opts: { db: Executor; id: string }) {
  return opts.db.transaction(async (tx) => {
    const user = isId(opts.id) ? await repo.findUser(tx, opts.id) : null;
    if (!user) throw notFound('User');
    const owned = await repo.projectsOnlyOwnedBy(tx, user.id);
    if (owned.length > 0) {
      throw new AppError(
        'CONFLICT',
        `${user.email} is the last owner of ${owned.length === 1 ? 'a project' : `${owned.length} projects`}: ` +
          'make someone else an owner first',
        { suggestion: `Projects: ${owned.join(', ')}` },
      );
    }
    await repo.deleteUser(tx, user.id);
    await recordAudit(tx, {
      action: 'user.deleted',
      resourceType: 'user',
      resourceId: user.id,
      changes: { email: [user.email, null] },
    });
    return { id: user.id, deleted: true as const };
  });
}

// ---- Sign-in ----

const subjectsOf = (email: string, ip: string | null) => [`email:${email}`, ...(ip ? [`ip:${ip}`] : [])];

/** A 429 while an email or a client address is over its failures; `Retry-After` says when it may try again. */
async function checkFailures(db: Executor, email: string, ip: string | null): Promise<void> {
  const now = Date.now();
  const counts = await repo.failuresSince(db, subjectsOf(email, ip), new Date(now - FAILURE_WINDOW_MS));
  for (const [subject, limit] of [
    [`email:${email}`, MAX_FAILURES_PER_EMAIL],
    [`ip:${ip}`, MAX_FAILURES_PER_ADDRESS],
  ] as const) {
    const seen = counts.get(subject);
    if (!seen || seen.n < limit) continue;
    const retryAfter = Math.max(1, Math.ceil((seen.latest.getTime() + FAILURE_WINDOW_MS - now) / 1000));
    const who = subject.startsWith('email:') ? 'this email' : 'your address';
    throw new AppError(
      'RATE_LIMIT_EXCEEDED',
      `Too many failed sign-ins for ${who}: try again in ${Math.ceil(retryAfter / 60)} minutes`,
      {
        headers: { 'Retry-After': String(retryAfter) },
        suggestion: 'Reset your password if you have forgotten it (POST /auth/password-reset).',
      },
    );
  }
}

const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', 'Wrong email or password');

async function recordFailure(
  db: Executor,
  email: string,
  client: Client,
  user: repo.UserRow | null,
  reason: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await repo.insertFailures(tx, subjectsOf(email, client.ip), new Date());
    await recordAudit(tx, {
      action: 'user.sign_in_failed',
      resourceType: 'user',
      resourceId: user?.id ?? null,
      actor: { type: 'user', id: user?.id ?? null, label: email.slice(0, 254) },
      changes: { reason: [null, reason] },
    });
  });
}

/**
 * Email and password (and a two-factor code when the user has two-factor): a session, or the same 401 for an unknown
 * email and a wrong password. Too many failures for the email or the address answer 429, a right password included.
 */
export async function signIn(opts: {
  ctx: AppContext;
  email: string;
  password: string;
  code?: string | undefined;
  client: Client;
}) {
  const { ctx, client } = opts;
  const email = normalizeEmail(opts.email);
  await checkFailures(ctx.db, email, client.ip);
  const user = await repo.findUserByEmail(ctx.db, email);
  const passwordOk = await verifyPassword(opts.password, user?.passwordHash ?? null);
  if (!user || !passwordOk) {
    await recordFailure(ctx.db, email, client, user, 'wrong email or password');
    throw invalidCredentials();
  }
  if (ctx.config.oidc?.only && !user.isAdmin) {
    throw new AppError('FORBIDDEN', 'Password sign-in is turned off on this instance: sign in with SSO', {
      suggestion: 'Use "Sign in with SSO" (GET /auth/oidc/start).',
    });
  }
  if (user.totpSecret) {
    if (!opts.code)
      throw new AppError('TWO_FACTOR_REQUIRED', 'Enter the code from your authenticator app, or a recovery code', {
        suggestion: 'Send the code as `code` with your email and password.',
      });
    if (!(await useSecondFactor(ctx, user, opts.code))) {
      await recordFailure(ctx.db, email, client, user, 'wrong two-factor code');
      throw new AppError(
        'TWO_FACTOR_REQUIRED',
        'That code is not right (or was used already): enter a current code, or an unused recovery code',
      );
    }
  }
  return ctx.db.transaction(async (tx) => {
    await repo.clearFailures(tx, `email:${email}`);
    return signInVerified({ db: tx, user, method: 'password', client });
  });
}

/** Signs in a user who proved who they are (a password, SSO, a setup or reset link, an invite); records how. */
export async function signInVerified(opts: { db: Executor; user: repo.UserRow; method: string; client: Client }) {
  const session = await startSession(opts.db, opts.user.id, opts.method, opts.client);
  await recordAudit(opts.db, {
    action: 'user.signed_in',
    resourceType: 'user',
    resourceId: opts.user.id,
    actor: actorOf(opts.user),
    changes: { method: [null, opts.method] },
  });
  return { session, view: await sessionView(opts.db, { ...opts.user, lastSignInAt: session.startedAt }) };
}

/** A TOTP code (once per time step) or an unused recovery code of the user's. */
async function useSecondFactor(ctx: AppContext, user: repo.UserRow, code: string): Promise<boolean> {
  if (!user.totpSecret) return false;
  if (looksLikeRecoveryCode(code)) {
    const used = await repo.useRecoveryCode(ctx.db, user.id, recoveryCodeHash(code), new Date());
    if (used)
      await recordAudit(ctx.db, {
        action: 'user.recovery_code_used',
        resourceType: 'user',
        resourceId: user.id,
        actor: actorOf(user),
      });
    return used;
  }
  const step = checkTotp(
    unseal(ctx.secrets.appSecret, TOTP_PURPOSE, user.totpSecret),
    code,
    user.totpLastStep === null ? null : Number(user.totpLastStep),
  );
  if (step === null) return false;
  await repo.updateUser(ctx.db, user.id, { totpLastStep: String(step) });
  return true;
}

export async function signOut(opts: { ctx: AppContext; signedIn: SignedIn }) {
  await opts.ctx.db.transaction(async (tx) => {
    await repo.deleteSession(tx, opts.signedIn.sessionId);
    await recordAudit(tx, { action: 'user.signed_out', resourceType: 'user', resourceId: opts.signedIn.user.id });
  });
}

// ---- One's own account ----

export async function updateMe(opts: {
  ctx: AppContext;
  signedIn: SignedIn;
  name?: string | undefined;
  password?: string | undefined;
  currentPassword?: string | undefined;
  client: Client;
}) {
  const { ctx } = opts;
  const user = await getUser(ctx.db, opts.signedIn.user.id);
  let passwordHash: string | undefined;
  if (opts.password !== undefined) {
    if (
      user.passwordHash &&
      !(opts.currentPassword !== undefined && (await verifyPassword(opts.currentPassword, user.passwordHash)))
    ) {
      throw validationError(
        'currentPassword',
        'Your current password is needed to change it, and that is not it',
        'wrong_password',
      );
    }
    checkPasswordRules(opts.password);
    passwordHash = await hashPassword(opts.password);
  }
  return ctx.db.transaction(async (tx) => {
    const now = new Date();
    const changes: Record<string, [unknown, unknown]> = {};
    if (opts.name !== undefined && opts.name !== user.name) changes.name = [user.name, opts.name];
    if (passwordHash) changes.password = ['[redacted]', '[redacted]'];
    const updated = (await repo.updateUser(tx, user.id, {
      ...(opts.name !== undefined ? { name: opts.name } : {}),
      ...(passwordHash ? { passwordHash, sessionsValidAfter: now } : {}),
    }))!;
    let session: StartedSession | null = null;
    if (passwordHash) {
      // Every session ends with the old password; the one that changed it goes on in a new session.
      await repo.deleteUserSessions(tx, user.id);
      session = await startSession(tx, user.id, 'password', opts.client);
    }
    if (Object.keys(changes).length > 0)
      await recordAudit(tx, {
        action: passwordHash ? 'user.password_changed' : 'user.updated',
        resourceType: 'user',
        resourceId: user.id,
        changes,
      });
    return { session, view: await sessionView(tx, (await repo.findUser(tx, updated.id))!) };
  });
}

// ---- Password reset ----

/** Mails a reset link (valid 1 hour) when the address has an account; the answer is the same either way. */
export async function requestPasswordReset(opts: { ctx: AppContext; email: string }) {
  const { ctx } = opts;
  const user = await repo.findUserByEmail(ctx.db, normalizeEmail(opts.email));
  if (!user) return;
  const link = await ctx.db.transaction(async (tx) => {
    await recordAudit(tx, {
      action: 'user.password_reset_requested',
      resourceType: 'user',
      resourceId: user.id,
      actor: actorOf(user),
    });
    return newPasswordLink(ctx, tx, user.id, 'reset');
  });
  const sent = await sendSystemEmail(ctx, {
    to: user.email,
    subject: 'Reset your Herald password',
    text: [
      `Someone asked to reset the password of your Herald account (${user.email}).`,
      '',
      `Set a new password within an hour: ${link.url}`,
      '',
      'If it was not you, ignore this email: your password stays as it is.',
      '',
    ].join('\n'),
    html:
      `<p>Someone asked to reset the password of your Herald account (${escapeHtml(user.email)}).</p>` +
      `<p><a href="${escapeHtml(link.url)}">Set a new password</a> within an hour.</p>` +
      '<p>If it was not you, ignore this email: your password stays as it is.</p>',
  });
  if (!sent)
    ctx.logger.warn(
      { problem: await systemSenderProblem(ctx) },
      'a password reset was asked for, but the instance cannot mail it: use `herald users reset-password --email E`',
    );
}

/** A new password from a reset or set-password link: the link is used up, and every session of the user ends. */
export async function confirmPasswordReset(opts: { ctx: AppContext; token: string; password: string; client: Client }) {
  checkPasswordRules(opts.password);
  const passwordHash = await hashPassword(opts.password);
  return opts.ctx.db.transaction(async (tx) => {
    const now = new Date();
    const token = await repo.findToken(tx, hashSecret(opts.token));
    if (
      !token ||
      (token.kind !== 'reset' && token.kind !== 'set_password') ||
      !token.userId ||
      token.usedAt ||
      (token.expiresAt && token.expiresAt <= now) ||
      !(await repo.useToken(tx, token.id, now))
    ) {
      throw new AppError('GONE', 'This link has been used, has expired or was replaced by a newer one', {
        suggestion: 'Ask for a new one (POST /auth/password-reset).',
      });
    }
    const user = (await repo.updateUser(tx, token.userId, { passwordHash, sessionsValidAfter: now }))!;
    await repo.deleteUserSessions(tx, user.id);
    await recordAudit(tx, {
      action: 'user.password_reset',
      resourceType: 'user',
      resourceId: user.id,
      actor: actorOf(user),
      changes: { password: ['[redacted]', '[redacted]'] },
    });
    return signInVerified({ db: tx, user, method: 'reset', client: opts.client });
  });
}

// ---- Two-factor ----

export async function setupTwoFactor(opts: { ctx: AppContext; signedIn: SignedIn }) {
  const user = await getUser(opts.ctx.db, opts.signedIn.user.id);
  if (user.totpSecret)
    throw new AppError('CONFLICT', 'Two-factor is on already', {
      suggestion: 'Turn it off first (POST /auth/2fa/disable) to set up another device.',
    });
  const { secret, otpauthUrl } = newTotpSecret(user.email);
  await repo.updateUser(opts.ctx.db, user.id, { totpPending: seal(opts.ctx.secrets.appSecret, TOTP_PURPOSE, secret) });
  return { secret, otpauthUrl };
}

export async function enableTwoFactor(opts: { ctx: AppContext; signedIn: SignedIn; code: string }) {
  const { ctx } = opts;
  const user = await getUser(ctx.db, opts.signedIn.user.id);
  if (user.totpSecret) throw new AppError('CONFLICT', 'Two-factor is on already');
  if (!user.totpPending) throw new AppError('CONFLICT', 'Set up two-factor first (POST /auth/2fa/setup)');
  const step = checkTotp(unseal(ctx.secrets.appSecret, TOTP_PURPOSE, user.totpPending), opts.code, null);
  if (step === null)
    throw validationError(
      'code',
      'That code is not right: enter the current code from your authenticator app',
      'wrong_code',
    );
  const { codes, hashes } = newRecoveryCodes();
  await ctx.db.transaction(async (tx) => {
    await repo.updateUser(tx, user.id, { totpSecret: user.totpPending, totpPending: null, totpLastStep: String(step) });
    await repo.replaceRecoveryCodes(tx, user.id, hashes);
    await recordAudit(tx, {
      action: 'user.two_factor_enabled',
      resourceType: 'user',
      resourceId: user.id,
      changes: { twoFactor: [false, true] },
    });
  });
  return { recoveryCodes: codes };
}

export async function disableTwoFactor(opts: { ctx: AppContext; signedIn: SignedIn; password: string; code: string }) {
  const { ctx } = opts;
  const user = await getUser(ctx.db, opts.signedIn.user.id);
  if (!user.totpSecret) throw new AppError('CONFLICT', 'Two-factor is off already');
  if (user.passwordHash && !(await verifyPassword(opts.password, user.passwordHash)))
    throw validationError('password', 'That is not your password', 'wrong_password');
  if (!(await useSecondFactor(ctx, user, opts.code)))
    throw validationError('code', 'That code is not right (or was used already)', 'wrong_code');
  await ctx.db.transaction(async (tx) => {
    await repo.updateUser(tx, user.id, { totpSecret: null, totpPending: null, totpLastStep: null });
    await repo.replaceRecoveryCodes(tx, user.id, []);
    await recordAudit(tx, {
      action: 'user.two_factor_disabled',
      resourceType: 'user',
      resourceId: user.id,
      changes: { twoFactor: [true, false] },
    });
  });
  return { twoFactor: false as const };
}

// ---- Housekeeping ----

/** Deletes ended sessions, used or expired links and old failures; answers how many rows went. */
export async function deleteExpired(ctx: AppContext): Promise<number> {
  const now = new Date();
  return (
    (await repo.deleteEndedSessions(ctx.db, new Date(now.getTime() - ctx.config.sessionIdleHours * HOUR), now)) +
    (await repo.deleteOldTokens(ctx.db, new Date(now.getTime() - 24 * HOUR))) +
    (await repo.deleteOldFailures(ctx.db, new Date(now.getTime() - FAILURE_WINDOW_MS)))
  );
}
