import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export type MemberRole = 'owner' | 'admin' | 'editor' | 'viewer';

/** People who sign in: accounts of the instance, members of projects through memberships. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    /** Lower-cased: one account per address. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    /**
     * scrypt with its parameters and salt in the string; null until the user sets one (an invite, a set-password link,
     * SSO).
     */
    passwordHash: text('password_hash'),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** The TOTP secret, sealed with the instance's secret; set once two-factor is enabled. */
    totpSecret: text('totp_secret'),
    /** A TOTP secret offered by setup and not yet confirmed with a code. */
    totpPending: text('totp_pending'),
    /** The last TOTP time step accepted: a code is good once. */
    totpLastStep: text('totp_last_step'),
    createdAt: at('created_at').notNull().defaultNow(),
    lastSignInAt: at('last_sign_in_at'),
    lastActiveAt: at('last_active_at'),
    /** Sessions started before this are over (a password change, a reset). */
    sessionsValidAfter: at('sessions_valid_after').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email)],
);

/** Signed-in browsers: a cookie holds the id's secret, the row its hash; revocable, idle and absolute expiry. */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: uuid('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    csrfToken: text('csrf_token').notNull(),
    /** How it began: password, sso, setup, invite, reset. */
    method: text('method').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: at('created_at').notNull().defaultNow(),
    lastSeenAt: at('last_seen_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [uniqueIndex('user_sessions_token_idx').on(t.tokenHash), index('user_sessions_user_idx').on(t.userId)],
);

/** One-time links: the first-run setup, a set-password link printed by the CLI, a password reset. */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey(),
    kind: text('kind', { enum: ['setup', 'set_password', 'reset'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at'),
    usedAt: at('used_at'),
  },
  (t) => [uniqueIndex('account_tokens_hash_idx').on(t.tokenHash)],
);

/** Two-factor recovery codes, hashed, each good once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/** Failed sign-ins counted per email and per client address (`email:<address>`, `ip:<address>`) over a window. */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    subject: text('subject').notNull(),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [index('sign_in_failures_subject_idx').on(t.subject, t.at)],
);

/** A user's role in a project. */
export const memberships = pgTable(
  'memberships',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<MemberRole>().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index('memberships_user_idx').on(t.userId)],
);

/** Invitations to a project: a single-use link for seven days. */
export const invites = pgTable(
  'invites',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').$type<MemberRole>().notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    acceptedAt: at('accepted_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [
    uniqueIndex('invites_token_idx').on(t.tokenHash),
    index('invites_project_idx').on(t.projectId, t.createdAt.desc()),
    index('invites_email_idx').on(t.email),
  ],
);

/** Who changed what: append-only, one row per change, kept RETENTION_AUDIT_DAYS. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey(),
    at: at('at').notNull().defaultNow(),
    actorType: text('actor_type', { enum: ['user', 'key', 'admin', 'system'] }).notNull(),
    actorId: text('actor_id'),
    actorLabel: text('actor_label').notNull(),
    action: text('action').notNull(),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id'),
    /** No foreign key: the log outlives a deleted project for the instance's admins. */
    projectId: uuid('project_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    requestId: text('request_id'),
    changes: jsonb('changes').$type<Record<string, [unknown, unknown]>>(),
  },
  (t) => [
    index('audit_log_project_idx').on(t.projectId, t.at.desc(), t.id.desc()),
    index('audit_log_at_idx').on(t.at.desc(), t.id.desc()),
  ],
);
