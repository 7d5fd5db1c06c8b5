import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import type { AppContext, Holds } from '../../context.types.ts';
import { AppError, findOr404, notFound, validationError } from '../../lib/errors.ts';
import { getDomain } from '../domains/index.ts';
import { isId, newId } from '../../lib/ids.ts';
import { generateApiKey, type KeyScope, type KeyType } from '../../lib/keys.ts';
import { iso } from '../../lib/http.ts';
import { toPage } from '../../lib/pagination.ts';
import { addMember } from '../accounts/index.ts';
import { changesOf, recordAudit } from '../audit/index.ts';
import * as repo from './projects.repo.ts';

export interface ProjectView {
  id: string;
  name: string;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ApiKeyView {
  id: string;
  name: string;
  type: KeyType;
  scope: KeyScope;
  domainIds: string[] | null;
  session: boolean;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

const defaultKeyName = (type: KeyType) => (type === 'secret' ? 'Secret key' : 'Public key');

export function toProjectView(row: repo.ProjectRow): ProjectView {
  return {
    id: row.id,
    name: row.name,
    disabled: row.disabled,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function toKeyView(row: repo.ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    scope: row.scope,
    domainIds: row.domainIds,
    session: row.session,
    prefix: row.prefix,
    createdAt: iso(row.createdAt),
    lastUsedAt: iso(row.lastUsedAt),
    expiresAt: iso(row.expiresAt),
    revokedAt: iso(row.revokedAt),
  };
}

function requireProject(opts: { db: Db; id: string }): Promise<repo.ProjectRow> {
  return findOr404('Project', opts.id, () => repo.findProject(opts.db, opts.id));
}

/** A new project and its first secret and public key (returned this once only). */
async function insertProjectWithKeys(tx: Executor, name: string) {
  const project = await repo.insertProject(tx, { id: newId(), name });
  const secret = generateApiKey('secret');
  const pub = generateApiKey('public');
  await repo.insertApiKey(tx, {
    id: newId(),
    projectId: project.id,
    type: 'secret',
    name: defaultKeyName('secret'),
    prefix: secret.prefix,
    keyHash: secret.hash,
  });
  await repo.insertApiKey(tx, {
    id: newId(),
    projectId: project.id,
    type: 'public',
    name: defaultKeyName('public'),
    prefix: pub.prefix,
    keyHash: pub.hash,
  });
  await recordAudit(tx, {
    action: 'project.created',
    resourceType: 'project',
    resourceId: project.id,
    projectId: project.id,
    changes: { name: [null, name] },
  });
  return { ...toProjectView(project), secretKey: secret.key, publicKey: pub.key };
}

/** Creates a project with one secret and one public key; the keys are returned this once only. */
/** A new project with its keys; `setup` adds what else it starts with (the local sender) in the same transaction. */
export async function createProject(opts: {
  db: Db;
  name: string;
  ownerUserId?: string | null | undefined;
  setup?: ((tx: Executor, projectId: string) => Promise<unknown>) | undefined;
}) {
  return opts.db.transaction(async (tx) => {
    const created = await insertProjectWithKeys(tx, opts.name);
    // An instance admin who makes a project owns it.
    if (opts.ownerUserId) await addMember(tx, { projectId: created.id, userId: opts.ownerUserId, role: 'owner' });
    await opts.setup?.(tx, created.id);
    return created;
  });
}

/** The name a first start gives the project it makes: until renamed, pages for recipients name the sender instead. */
export const DEFAULT_PROJECT_NAME = 'Default';

/**
 * Creates the `Default` project on an empty database (null when any project exists already); `setup` adds
 * what else a new install's project starts with (its local sender domain) in the same transaction.
 */
export async function ensureDefaultProject(opts: {
  db: Db;
  setup?: (tx: Executor, projectId: string) => Promise<unknown>;
}) {
  return opts.db.transaction(async (tx) => {
    // Several processes may start at once on one PostgreSQL: only the first creates it.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7421338)`);
    if ((await repo.countProjects(tx)) > 0) return null;
    const created = await insertProjectWithKeys(tx, DEFAULT_PROJECT_NAME);
    await opts.setup?.(tx, created.id);
    return created;
  });
}

export async function getProject(opts: { db: Db; id: string }): Promise<ProjectView> {
  return toProjectView(await requireProject({ db: opts.db, id: opts.id }));
}

export async function listProjects(opts: { db: Db; limit: number; cursor?: string | undefined }) {
  const { rows, total } = await repo.listProjects(opts.db, opts);
  return toPage(rows, opts.limit, total, toProjectView);
}

/** Renames or disables/enables a project; a disabled project's keys answer 403 PROJECT_DISABLED. */
export async function updateProject(opts: {
  db: Executor;
  id: string;
  name?: string | undefined;
  disabled?: boolean | undefined;
  /** Releases the work held while the project was disabled (required to enable one). */
  holds?: Holds;
}) {
  if (opts.disabled === false && !opts.holds)
    throw new Error('updateProject: enabling a project needs the holds to release');
  return opts.db.transaction(async (tx) => {
    const before = await findOr404('Project', opts.id, () => repo.findProject(tx, opts.id));
    const row = (await repo.updateProject(tx, opts.id, { name: opts.name, disabled: opts.disabled }))!;
    const changes = changesOf(
      { name: before.name, disabled: before.disabled },
      { name: row.name, disabled: row.disabled },
    );
    const action = changes?.disabled ? (row.disabled ? 'project.disabled' : 'project.enabled') : 'project.updated';
    // Mail held while the project was disabled goes out now.
    if (before.disabled && !row.disabled)
      await opts.holds?.release({ db: tx, projectId: row.id, cause: 'PROJECT_DISABLED' });
    await recordAudit(tx, { action, resourceType: 'project', resourceId: row.id, projectId: row.id, changes });
    return toProjectView(row);
  });
}

export interface NewKeyOptions {
  type: KeyType;
  name?: string | undefined;
  session?: boolean | undefined;
  scope?: KeyScope | undefined;
  domainIds?: string[] | undefined;
  expiresAt?: string | undefined;
}

/** 422 unless every id is a domain of the project (checked by the domains module, the owner of domains). */
async function checkDomainIds(ctx: AppContext, projectId: string, ids: string[]): Promise<void> {
  for (const [index, id] of ids.entries()) {
    const known = await getDomain({ db: ctx.db, projectId, id }).then(
      () => true,
      (error: unknown) => {
        if (error instanceof AppError && error.code === 'NOT_FOUND') return false;
        throw error;
      },
    );
    if (!known) throw validationError(`domainIds.${index}`, `No domain ${id} in this project`, 'not_found');
  }
}

/**
 * Issues a new key for a project (a session key when `session`; restricted by `scope` and `domainIds`, ending at
 * `expiresAt`); the full key is returned this once only.
 */
export async function createApiKey(opts: { ctx: AppContext; projectId: string } & NewKeyOptions) {
  const { db } = opts.ctx;
  await requireProject({ db, id: opts.projectId });
  if (opts.type === 'public' && opts.scope && opts.scope !== 'full')
    throw validationError('scope', 'Public keys only reach the tracking routes and take no scope', 'invalid');
  const domainIds = opts.domainIds ? [...new Set(opts.domainIds)] : null;
  // A full key could make a campaign or workflow from any domain and send it: only a sending key can be held to some.
  if (domainIds && opts.scope !== 'sending')
    throw validationError(
      'domainIds',
      'Only a key with the sending scope can be restricted to sender domains',
      'needs_sending_scope',
    );
  if (domainIds) await checkDomainIds(opts.ctx, opts.projectId, domainIds);
  const generated = generateApiKey(opts.type);
  const row = await db.transaction(async (tx) => {
    const created = await repo.insertApiKey(tx, {
      id: newId(),
      projectId: opts.projectId,
      type: opts.type,
      name: opts.name ?? defaultKeyName(opts.type),
      session: opts.session ?? false,
      prefix: generated.prefix,
      keyHash: generated.hash,
      scope: opts.scope ?? 'full',
      domainIds,
      expiresAt: opts.expiresAt ? new Date(opts.expiresAt) : null,
    });
    await recordAudit(tx, {
      action: 'key.created',
      resourceType: 'key',
      resourceId: created.id,
      projectId: opts.projectId,
      changes: changesOf(
        {},
        {
          name: created.name,
          type: created.type,
          scope: created.scope,
          prefix: created.prefix,
          domainIds: created.domainIds,
          expiresAt: created.expiresAt,
        },
      ),
    });
    return created;
  });
  const { lastUsedAt: _used, revokedAt: _revoked, ...view } = toKeyView(row);
  return { ...view, key: generated.key };
}

/**
 * Revokes another key of the caller's project; a key cannot revoke itself (403), so a caller cannot lock itself out by
 * mistake.
 */
export async function revokeOwnApiKey(opts: { db: Db; projectId: string; keyId: string; callerKeyId: string | null }) {
  if (opts.keyId === opts.callerKeyId) {
    throw new AppError('FORBIDDEN', 'A key cannot revoke itself', {
      suggestion: 'Revoke it with another full key of the project, or from the dashboard.',
    });
  }
  return revokeApiKey(opts);
}

export async function listApiKeys(opts: { db: Db; projectId: string }): Promise<ApiKeyView[]> {
  await requireProject({ db: opts.db, id: opts.projectId });
  return (await repo.listApiKeys(opts.db, opts.projectId)).map(toKeyView);
}

/** Revokes a key at once; returns its hash so the caller can drop it from the auth cache. */
export async function revokeApiKey(opts: { db: Db; projectId: string; keyId: string }) {
  const row =
    isId(opts.projectId) && isId(opts.keyId)
      ? await revokeRecorded(opts.db, (tx) => repo.revokeApiKey(tx, opts.projectId, opts.keyId))
      : null;
  if (!row) throw notFound('API key');
  return { view: toKeyView(row), keyHash: row.keyHash };
}

/** Revokes a key and records `key.revoked` in the same transaction; null when there was no such live key. */
async function revokeRecorded(db: Db, revoke: (tx: Executor) => Promise<repo.ApiKeyRow | null>) {
  return db.transaction(async (tx) => {
    const revoked = await revoke(tx);
    if (revoked) {
      await recordAudit(tx, {
        action: 'key.revoked',
        resourceType: 'key',
        resourceId: revoked.id,
        projectId: revoked.projectId,
        changes: { name: [revoked.name, revoked.name] },
      });
    }
    return revoked;
  });
}

/**
 * The live key with this hash and its project (the auth plugin's lookup, cached briefly); null for unknown or
 * revoked keys and for session keys idle past 12 hours. Marks the key used.
 */
export async function findKeyByHash(opts: { db: Db; keyHash: string }) {
  const row = await repo.findKeyByHash(opts.db, opts.keyHash);
  if (row) await repo.touchApiKey(opts.db, row.key.id);
  return row;
}

/** The calling key and its project: what a dashboard signed in with a secret key shows as its project. */
export async function getCurrentKey(opts: { db: Db; keyId: string }) {
  const row = await findOr404('API key', opts.keyId, () => repo.findApiKeyWithProject(opts.db, opts.keyId));
  return { ...toKeyView(row.key), project: { id: row.project.id, name: row.project.name } };
}

/** Revokes the calling key when it is a session key (a dashboard tab closing); 403 for any other key. */
export async function revokeCurrentSessionKey(opts: { db: Db; keyId: string }) {
  const row = await revokeRecorded(opts.db, (tx) => repo.revokeSessionKey(tx, opts.keyId));
  if (!row)
    throw new AppError('FORBIDDEN', 'Only a session key can revoke itself', {
      suggestion: 'Revoke other keys with the admin API: DELETE /admin/projects/{id}/keys/{keyId}.',
    });
  return toKeyView(row);
}

/** Deletes the session keys that ended (revoked, or idle past 12 hours); the periodic clean-up. */
export async function deleteEndedSessionKeys(opts: { db: Db }): Promise<number> {
  return repo.deleteEndedSessionKeys(opts.db);
}
