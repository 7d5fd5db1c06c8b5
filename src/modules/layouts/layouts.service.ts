import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { AppError, findOr404, notFound } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { isId, newId } from '../../lib/ids.ts';
import { toPage } from '../../lib/pagination.ts';
import { checkLayout, ContentError, type LayoutSource } from '../../mail/content/index.ts';
import { changesOf, recordAudit } from '../audit/index.ts';
import * as repo from './layouts.repo.ts';

export type { LayoutRow } from './layouts.repo.ts';

export function toLayoutView(row: repo.LayoutRow) {
  return {
    id: row.id,
    name: row.name,
    format: row.format,
    body: row.body,
    isDefault: row.isDefault,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A ContentError as the 422 of the request fields it names. */
export function contentProblem(error: unknown): AppError | null {
  if (!(error instanceof ContentError)) return null;
  return new AppError('VALIDATION_ERROR', error.message, {
    errors: error.errors.map((e) => ({ field: e.field, message: e.message, code: e.code })),
  });
}

function checked(layout: LayoutSource): void {
  try {
    checkLayout(layout, 'body');
  } catch (error) {
    throw contentProblem(error) ?? error;
  }
}

/** A layout as the content compiler takes it. */
export const layoutSourceOf = (row: repo.LayoutRow): LayoutSource => ({ format: row.format, source: row.body });

function record(tx: Executor, verb: string, before: repo.LayoutRow | null, after: repo.LayoutRow | null) {
  const row = (after ?? before)!;
  const fields = (r: repo.LayoutRow | null) => r && { name: r.name, format: r.format, body: r.body };
  return recordAudit(tx, {
    action: `layout.${verb}`,
    resourceType: 'layout',
    resourceId: row.id,
    projectId: row.projectId,
    changes: after ? changesOf(fields(before), fields(after)!, { redact: ['body'] }) : { name: [row.name, null] },
  });
}

export async function createLayout(opts: {
  ctx: AppContext;
  projectId: string;
  input: { name: string; format: repo.LayoutRow['format']; body: string };
}) {
  const { input } = opts;
  checked({ format: input.format, source: input.body });
  const row = await opts.ctx.db.transaction(async (tx) => {
    const created = await repo.insertLayout(tx, { id: newId(), projectId: opts.projectId, ...input });
    await record(tx, 'created', null, created);
    return created;
  });
  return toLayoutView(row);
}

/** A layout of the project, or 404 (also for another project's id). */
export function requireLayout(opts: { db: Executor; projectId: string; id: string }): Promise<repo.LayoutRow> {
  return findOr404('Layout', opts.id, () => repo.findLayout(opts.db, opts.projectId, opts.id));
}

export async function getLayout(opts: { db: Executor; projectId: string; id: string }) {
  return toLayoutView(await requireLayout(opts));
}

export async function listLayouts(opts: { db: Executor; projectId: string; limit: number; cursor?: string }) {
  const { rows, total } = await repo.listLayouts(opts.db, opts.projectId, opts);
  return toPage(rows, opts.limit, total, toLayoutView);
}

/** Changes a layout; what uses it is compiled again in the same transaction (a 422 there refuses the change). */
export async function updateLayout(opts: {
  ctx: AppContext;
  projectId: string;
  id: string;
  input: Partial<{ name: string; format: repo.LayoutRow['format']; body: string }>;
}) {
  const { ctx, projectId, id, input } = opts;
  if (!isId(id)) throw notFound('Layout');
  const row = await ctx.db.transaction(async (tx) => {
    const current = await repo.lockLayout(tx, projectId, id);
    if (!current) throw notFound('Layout');
    const format = input.format ?? current.format;
    const body = input.body ?? current.body;
    checked({ format, source: body });
    const updated = (await repo.updateLayout(tx, projectId, id, input))!;
    if (format !== current.format || body !== current.body) {
      await ctx.references.layoutChanged({ db: tx, projectId, layoutId: id });
      if (current.isDefault) await ctx.references.layoutChanged({ db: tx, projectId, layoutId: null });
    }
    await record(tx, 'updated', current, updated);
    return updated;
  });
  return toLayoutView(row);
}

/** Deletes a layout; 409 naming what uses it (a template, an unsent campaign, or being the project's default). */
export async function deleteLayout(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { ctx, projectId, id } = opts;
  if (!isId(id)) throw notFound('Layout');
  await ctx.db.transaction(async (tx) => {
    const current = await repo.lockLayout(tx, projectId, id);
    if (!current) throw notFound('Layout');
    if (current.isDefault)
      throw new AppError('CONFLICT', `Layout ${current.name} is the project's default layout`, {
        suggestion: 'Choose another default layout (or none) in the settings first',
      });
    const blocker = await ctx.references.blockerOf('layout', { db: tx, projectId, id });
    if (blocker)
      throw new AppError('CONFLICT', blocker.message, blocker.suggestion ? { suggestion: blocker.suggestion } : {});
    await repo.deleteLayout(tx, projectId, id);
    await record(tx, 'deleted', current, null);
  });
  return { id, deleted: true as const };
}

/** The layout content of this project is put in: the one it names, else its default (null: none). */
export async function findLayoutFor(opts: {
  db: Executor;
  projectId: string;
  layoutId: string | null;
  noLayout: boolean;
}): Promise<repo.LayoutRow | null> {
  if (opts.noLayout) return null;
  if (opts.layoutId) return repo.findLayout(opts.db, opts.projectId, opts.layoutId);
  return repo.findDefaultLayout(opts.db, opts.projectId);
}

/** The project's default layout's id, or null. */
export async function defaultLayoutId(opts: { db: Executor; projectId: string }): Promise<string | null> {
  return (await repo.findDefaultLayout(opts.db, opts.projectId))?.id ?? null;
}

/**
 * Makes `layoutId` the project's default (null: none), and compiles again what uses the default, in the caller's
 * transaction; 422 for a layout the project does not have.
 */
export async function setDefaultLayout(opts: {
  ctx: AppContext;
  db: Executor;
  projectId: string;
  layoutId: string | null;
}): Promise<void> {
  const { db, projectId, layoutId } = opts;
  const current = await repo.findDefaultLayout(db, projectId);
  if ((current?.id ?? null) === layoutId) return;
  if (layoutId && !(isId(layoutId) && (await repo.lockLayout(db, projectId, layoutId))))
    throw new AppError('VALIDATION_ERROR', 'defaultLayoutId: no layout of this project has this id', {
      errors: [{ field: 'defaultLayoutId', message: 'no layout of this project has this id', code: 'unknown_layout' }],
    });
  await repo.setDefaultLayout(db, projectId, layoutId);
  await opts.ctx.references.layoutChanged({ db, projectId, layoutId: null });
}
