// A project's own transports: create, read, change and delete them, each change in the audit log without its secret.
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import type { TransportConfig, TransportType } from '../../db/schema/index.ts';
import { violates } from '../../lib/db-errors.ts';
import { AppError, findOr404, notFound, type FieldError } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { encodeCursor } from '../../lib/pagination.ts';
import { sameJson } from '../../lib/same-json.ts';
import { changesOf, recordAudit } from '../audit/index.ts';
import { deleteHealth, readHealth } from './transports.health.ts';
import { DEFAULT_TRANSPORT_ID } from './transports.route.ts';
import { sealTransportSecret, type TransportSecret } from './transports.secrets.ts';
import * as repo from './transports.repo.ts';
import {
  sesSettings,
  smtpSettings,
  type CreateTransportInput,
  type UpdateTransportInput,
} from './transports.schemas.ts';
import { defaultView, toView, viewOf } from './transports.view.ts';

const SECRET_FIELD: Record<TransportType, 'password' | 'secretAccessKey' | null> = {
  smtp: 'password',
  ses: 'secretAccessKey',
  outbox: null,
};

/** A transport's settings, its config's keys in one order (jsonb keeps its own). */
function settingsOf(r: repo.TransportRecord) {
  return {
    name: r.name,
    type: r.type,
    config: Object.fromEntries(Object.entries(r.config).sort(([a], [b]) => (a < b ? -1 : 1))),
    maxPerSecond: r.maxPerSecond,
    maxConnections: r.maxConnections,
    secret: r.secret,
  };
}

/** What the audit log keeps of a transport: its settings, and whether its secret changed (never the secret). */
function record(tx: Executor, verb: string, before: repo.TransportRecord | null, after: repo.TransportRecord | null) {
  const row = (after ?? before)!;
  const secretField = SECRET_FIELD[row.type] ?? 'secret';
  const fields = (r: repo.TransportRecord | null) => {
    if (!r) return null;
    const { secret, ...settings } = settingsOf(r);
    return { ...settings, [secretField]: secret };
  };
  return recordAudit(tx, {
    action: `transport.${verb}`,
    resourceType: 'transport',
    resourceId: row.id,
    projectId: row.projectId,
    changes: after ? changesOf(fields(before), fields(after)!, { redact: [secretField] }) : { name: [row.name, null] },
  });
}

const nameTaken = (name: string) =>
  new AppError('CONFLICT', `A transport named "${name}" already exists in this project`, {
    suggestion: 'Choose another name, or change the existing transport (PATCH /transports/{id}).',
  });

const builtIn = (what: 'changed' | 'deleted') =>
  new AppError('CONFLICT', `The built-in transport "default" cannot be ${what} through the API`, {
    suggestion:
      'It is the instance’s own transport (MAIL_TRANSPORT, SMTP_URL, SES_* variables): change those and restart, ' +
      'or add a transport of the project (POST /transports) and route mail to it (PUT /routing).',
  });

/** Runs `work`, turning the project's unique name index into a 409. */
async function uniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (violates(error, 'transports_project_name_idx')) throw nameTaken(name);
    throw error;
  }
}

export async function createTransport(opts: { ctx: AppContext; projectId: string; input: CreateTransportInput }) {
  const { ctx, projectId, input } = opts;
  let config: TransportConfig = {};
  let secret: TransportSecret = {};
  if (input.type === 'smtp') {
    const { password, ...settings } = input.config;
    config = settings;
    if (password !== undefined) secret = { password };
  } else if (input.type === 'ses') {
    const { secretAccessKey, ...settings } = input.config;
    config = settings;
    secret = { secretAccessKey };
  }
  const row = await uniqueName(input.name, () =>
    ctx.db.transaction(async (tx) => {
      const created = await repo.insertTransport(tx, {
        id: newId(),
        projectId,
        name: input.name,
        type: input.type,
        config,
        secret: sealTransportSecret(ctx.secrets.appSecret, secret),
        maxPerSecond: input.maxPerSecond ?? null,
        maxConnections: input.maxConnections ?? null,
      });
      await record(tx, 'created', null, created);
      return created;
    }),
  );
  return viewOf(ctx, ctx.db, row);
}

/** A transport of the project, or 404 (also for another project's id). */
function requireTransport(opts: { db: Executor; projectId: string; id: string }): Promise<repo.TransportRecord> {
  return findOr404('Transport', opts.id, () => repo.findTransport(opts.db, opts.projectId, opts.id));
}

export async function getTransport(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { ctx } = opts;
  if (opts.id === DEFAULT_TRANSPORT_ID) {
    const health = await readHealth(ctx.db, [DEFAULT_TRANSPORT_ID]);
    return defaultView(ctx, health.get(DEFAULT_TRANSPORT_ID)!);
  }
  return viewOf(ctx, ctx.db, await requireTransport({ db: ctx.db, ...opts }));
}

/** Where a first page of one row resumes: before every stored row. */
const START: { createdAt: Date; id: string } = {
  createdAt: new Date('9999-12-31T23:59:59.999Z'),
  id: 'ffffffff-ffff-ffff-ffff-ffffffffffff',
};

/** The first page starts with the built-in `default`, which counts in `total` and takes one place of `limit`. */
export async function listTransports(opts: { ctx: AppContext; projectId: string; limit: number; cursor?: string }) {
  const { ctx, projectId, limit, cursor } = opts;
  const first = cursor === undefined;
  const take = first ? limit - 1 : limit;
  const { rows, total } = await repo.listTransports(ctx.db, projectId, { limit: take, cursor });
  const shown = rows.slice(0, take);
  const health = await readHealth(ctx.db, [DEFAULT_TRANSPORT_ID, ...shown.map((r) => r.id)]);
  const items = shown.map((row) => toView(ctx, row, health.get(row.id)!));
  if (first) items.unshift(defaultView(ctx, health.get(DEFAULT_TRANSPORT_ID)!));
  const hasMore = rows.length > take;
  return {
    items,
    nextCursor: hasMore ? encodeCursor(shown.at(-1) ?? START) : null,
    hasMore,
    total: total + 1,
  };
}

const SETTINGS_OF: Record<TransportType, readonly string[]> = {
  smtp: ['host', 'port', 'secure', 'username', 'password'],
  ses: ['region', 'accessKeyId', 'secretAccessKey', 'snsTopicArns', 'endpoint'],
  outbox: [],
};

/** The stored settings and secret after a PATCH of `config`; a 422 naming each field that does not fit the type. */
function patchedConfig(
  ctx: AppContext,
  current: repo.TransportRecord,
  patch: NonNullable<UpdateTransportInput['config']>,
): { config: TransportConfig; secret?: string | null } {
  const foreign = Object.keys(patch).filter((key) => !SETTINGS_OF[current.type].includes(key));
  if (foreign.length > 0)
    throw new AppError('VALIDATION_ERROR', `config.${foreign[0]}: not a setting of ${current.type} transports`, {
      errors: foreign.map((key) => ({
        field: `config.${key}`,
        message: `not a setting of ${current.type} transports`,
        code: 'unrecognized_keys',
      })),
    });
  const { password, secretAccessKey, ...settings } = patch;
  const merged: Record<string, unknown> = { ...current.config };
  for (const [key, value] of Object.entries(settings)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  const schema = current.type === 'smtp' ? smtpSettings : current.type === 'ses' ? sesSettings : null;
  const parsed = schema?.safeParse(merged);
  if (parsed && !parsed.success) {
    const errors: FieldError[] = parsed.error.issues.map((issue) => ({
      field: ['config', ...issue.path].join('.'),
      message: issue.message,
      code: issue.code,
    }));
    throw new AppError('VALIDATION_ERROR', `${errors[0]!.field}: ${errors[0]!.message}`, { errors });
  }
  const config = (parsed?.data ?? {}) as TransportConfig;
  if (password === undefined && secretAccessKey === undefined) return { config };
  const secret =
    password === null
      ? null
      : sealTransportSecret(ctx.secrets.appSecret, {
          ...(password !== undefined ? { password } : {}),
          ...(secretAccessKey !== undefined ? { secretAccessKey } : {}),
        });
  return { config, secret };
}

/** Changes the fields given; updated_at moves with every change, so workers rebuild their connections. */
export async function updateTransport(opts: {
  ctx: AppContext;
  projectId: string;
  id: string;
  input: UpdateTransportInput;
}) {
  const { ctx, projectId, id, input } = opts;
  if (id === DEFAULT_TRANSPORT_ID) throw builtIn('changed');
  if (!isId(id)) throw notFound('Transport');
  const row = await uniqueName(input.name ?? '', () =>
    ctx.db.transaction(async (tx) => {
      const current = await repo.lockTransport(tx, projectId, id);
      if (!current) throw notFound('Transport');
      const patch: Parameters<typeof repo.updateTransport>[3] = {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.config ? patchedConfig(ctx, current, input.config) : {}),
        ...(input.maxPerSecond !== undefined ? { maxPerSecond: input.maxPerSecond } : {}),
        ...(input.maxConnections !== undefined ? { maxConnections: input.maxConnections } : {}),
      };
      if (sameJson(settingsOf({ ...current, ...patch }), settingsOf(current))) return current;
      const updated = (await repo.updateTransport(tx, projectId, id, patch))!;
      await record(tx, 'updated', current, updated);
      return updated;
    }),
  );
  return viewOf(ctx, ctx.db, row);
}

/** Where the project's routing names a transport, as the fields of PUT /routing. */
function usesOf(routing: repo.RoutingRecord | null, id: string): string[] {
  if (!routing) return [];
  const uses: string[] = [];
  routing.rules.forEach((rule, at) => {
    if (rule.transportId === id) uses.push(`rules[${at}].transportId`);
    if (rule.fallbackIds?.includes(id)) uses.push(`rules[${at}].fallbackIds`);
  });
  if (routing.defaultTransportId === id) uses.push('defaultTransportId');
  return uses;
}

/** Deletes a transport and its health record; 409 while the project's routing still names it. */
export async function deleteTransport(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { ctx, projectId, id } = opts;
  if (id === DEFAULT_TRANSPORT_ID) throw builtIn('deleted');
  if (!isId(id)) throw notFound('Transport');
  await ctx.db.transaction(async (tx) => {
    const current = await repo.lockTransport(tx, projectId, id);
    if (!current) throw notFound('Transport');
    const uses = usesOf(await repo.findRouting(tx, projectId), id);
    if (uses.length > 0)
      throw new AppError(
        'CONFLICT',
        `Transport "${current.name}" is still used by the project's routing: ${uses.join(', ')}`,
        {
          suggestion:
            'Change the routing first (PUT /routing) so that no rule, fallback or default names this transport, ' +
            'then delete it.',
        },
      );
    await repo.deleteTransport(tx, projectId, id);
    await deleteHealth(tx, id);
    await record(tx, 'deleted', current, null);
  });
  return { id, deleted: true as const };
}

/** The projects whose SES transports carry their notifications on this SNS topic (POST /feedback/ses). */
export function projectsOfSnsTopic(opts: { db: Executor; topicArn: string }): Promise<string[]> {
  return repo.projectsOfSnsTopic(opts.db, opts.topicArn);
}

/** Whether any project sends through SES (so POST /feedback/ses has notifications to take). */
export function anySesTransport(opts: { db: Executor }): Promise<boolean> {
  return repo.anySesTransport(opts.db);
}

/** Every project's transports, oldest first (what `herald doctor` checks). */
export function listAllTransports(opts: { db: Executor }): Promise<repo.TransportRecord[]> {
  return repo.allTransports(opts.db);
}
