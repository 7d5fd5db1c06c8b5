import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import type { TemplateSnapshot, TemplateType } from '../../db/schema/templates.ts';
import { AppError, findOr404, notFound } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { toPage } from '../../lib/pagination.ts';
import { currentOrigin } from '../../lib/request-origin.ts';
import { changesOf, recordAudit } from '../audit/index.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { compileSource, sourceOf, sourceOver } from './templates.content.ts';
import * as repo from './templates.repo.ts';
import type { TemplateInput } from './templates.schemas.ts';
import { publishedSnapshot, toTemplateView, versionSummaryView, versionView } from './templates.views.ts';

export { publishedSnapshot } from './templates.views.ts';

export type { TemplateRow } from './templates.repo.ts';
export { checkTemplateSyntax, templateProblem } from './templates.syntax.ts';

/** The fields of a request that make a new version (the rest — name, type, sample data — change in place). */
const CONTENT_KEYS = [
  'subject',
  'format',
  'body',
  'content',
  'from',
  'fromName',
  'replyTo',
  'layoutId',
  'translations',
];

/** `base` with the request's content fields over it, compiled; a 422 names what does not compile. */
async function nextSnapshot(
  ctx: AppContext,
  projectId: string,
  base: TemplateSnapshot | null,
  input: TemplateInput,
): Promise<{ snapshot: TemplateSnapshot; warnings: string[] }> {
  const source = sourceOver(input, base);
  const { format } = source;
  const from = input.from !== undefined ? (input.from?.toLowerCase() ?? null) : (base?.fromEmail ?? null);
  if (input.from) await requireSenderDomain({ ctx, projectId, from: input.from });
  const out = await compileSource({ db: ctx.db, projectId, source });
  return {
    snapshot: {
      subject: source.subject,
      format,
      body: out.body,
      content: out.content,
      html: out.html,
      fromEmail: from,
      fromName: input.fromName !== undefined ? input.fromName : (base?.fromName ?? null),
      replyTo: input.replyTo !== undefined ? input.replyTo : (base?.replyTo ?? null),
      layoutId: source.layoutId,
      noLayout: source.noLayout,
      translations: out.translations,
    },
    warnings: out.warnings,
  };
}

/** The template row's columns for a published snapshot. */
const publishedColumns = (snapshot: TemplateSnapshot) => ({
  subject: snapshot.subject,
  format: snapshot.format,
  body: snapshot.body,
  content: snapshot.content,
  html: snapshot.html,
  fromEmail: snapshot.fromEmail,
  fromName: snapshot.fromName,
  replyTo: snapshot.replyTo,
  layoutId: snapshot.layoutId,
  noLayout: snapshot.noLayout,
  translations: snapshot.translations,
});

/** What the audit log keeps of a template: its fields; bodies and sample data named, not copied. */
function auditedFields(row: repo.TemplateRow | null): Record<string, unknown> | null {
  if (!row) return null;
  const { name, type, subject, format, fromEmail, fromName, replyTo, body, content, sampleData, version } = row;
  return { name, type, subject, format, from: fromEmail, fromName, replyTo, body, content, sampleData, version };
}

function recordTemplateChange(
  tx: Executor,
  action: string,
  before: repo.TemplateRow | null,
  after: repo.TemplateRow | null,
  extra: Record<string, [unknown, unknown]> = {},
): Promise<void> {
  const row = (after ?? before)!;
  const changes = after
    ? {
        ...changesOf(auditedFields(before), auditedFields(after)!, { redact: ['body', 'content', 'sampleData'] }),
        ...extra,
      }
    : { name: [row.name, null] as [unknown, unknown] };
  return recordAudit(tx, { action, resourceType: 'template', resourceId: row.id, projectId: row.projectId, changes });
}

/** Creates a template (version 1: published, or a draft with `publish: false`) after compiling its content. */
export async function createTemplate(opts: {
  ctx: AppContext;
  projectId: string;
  input: TemplateInput & { name: string; subject: string; type: TemplateType };
}) {
  const { ctx, projectId, input } = opts;
  const { snapshot, warnings } = await nextSnapshot(ctx, projectId, null, input);
  const publish = input.publish !== false;
  const actor = currentOrigin().actor;
  const row = await ctx.db.transaction(async (tx) => {
    const id = newId();
    const created = await repo.insertTemplate(tx, {
      id,
      projectId,
      name: input.name,
      type: input.type,
      sampleData: input.sampleData ?? null,
      ...publishedColumns(snapshot),
      version: publish ? 1 : 0,
      publishedBy: publish ? actor : null,
      draftVersion: publish ? null : 1,
    });
    await repo.insertVersion(tx, {
      id: newId(),
      templateId: id,
      version: 1,
      snapshot,
      savedBy: actor,
      ...(publish ? { publishedAt: created.publishedAt, publishedBy: actor } : {}),
    });
    await recordTemplateChange(tx, 'template.created', null, created);
    return created;
  });
  return { ...(await viewOf(ctx.db, row)), warnings };
}

/** A template of the project, or 404 (also for another project's id). */
export function requireTemplate(opts: { db: Executor; projectId: string; id: string }): Promise<repo.TemplateRow> {
  return findOr404('Template', opts.id, () => repo.findTemplate(opts.db, opts.projectId, opts.id));
}

/** A template sends may use: one with a published version (a template saved only as a draft is a 422). */
export async function requireSendableTemplate(opts: {
  db: Executor;
  projectId: string;
  id: string;
  field?: string;
}): Promise<repo.TemplateRow> {
  const row = await requireTemplate(opts);
  if (row.version === 0)
    throw new AppError('VALIDATION_ERROR', 'The template has no published version yet: publish it first', {
      errors: [{ field: opts.field ?? 'template', message: 'not published yet', code: 'template_unpublished' }],
    });
  return row;
}

async function viewOf(db: Executor, row: repo.TemplateRow) {
  const draft = row.draftVersion === null ? null : await repo.findVersion(db, row.id, row.draftVersion);
  return toTemplateView(row, draft);
}

export async function getTemplate(opts: { db: Executor; projectId: string; id: string }) {
  return viewOf(opts.db, await requireTemplate(opts));
}

export async function listTemplates(opts: {
  db: Executor;
  projectId: string;
  limit: number;
  cursor?: string | undefined;
  type?: TemplateType | undefined;
  search?: string | undefined;
}) {
  const { rows, total } = await repo.listTemplates(opts.db, opts.projectId, opts);
  return toPage(rows, opts.limit, total, (row) => toTemplateView(row, null));
}

/** 409 when a module relies on what the published content would no longer hold (the confirmation email's link). */
async function checkPublishable(ctx: AppContext, tx: Executor, row: repo.TemplateRow, snapshot: TemplateSnapshot) {
  const blocker = await ctx.references.templateChangeBlocker({
    db: tx,
    projectId: row.projectId,
    id: row.id,
    body: snapshot.html,
    fromEmail: snapshot.fromEmail,
  });
  if (blocker)
    throw new AppError('CONFLICT', blocker.message, blocker.suggestion ? { suggestion: blocker.suggestion } : {});
}

/**
 * Saves a snapshot as the template's next version: published at once (the draft, if any, becomes that version), or
 * as the draft (replacing the one there was).
 */
async function saveVersion(
  ctx: AppContext,
  tx: Executor,
  current: repo.TemplateRow,
  snapshot: TemplateSnapshot,
  publish: boolean,
  meta: Partial<Pick<repo.TemplateRow, 'name' | 'type' | 'sampleData'>>,
): Promise<repo.TemplateRow> {
  const actor = currentOrigin().actor;
  const version = current.draftVersion ?? (await repo.lastVersion(tx, current.id)) + 1;
  const now = new Date();
  if (publish) await checkPublishable(ctx, tx, current, snapshot);
  const published = publish ? { publishedAt: now, publishedBy: actor } : { publishedAt: null, publishedBy: null };
  if (current.draftVersion !== null)
    await repo.updateVersion(tx, current.id, version, { snapshot, savedAt: now, savedBy: actor, ...published });
  else
    await repo.insertVersion(tx, {
      id: newId(),
      templateId: current.id,
      version,
      snapshot,
      savedBy: actor,
      ...published,
    });
  const patch = publish
    ? { ...meta, ...publishedColumns(snapshot), version, publishedAt: now, publishedBy: actor, draftVersion: null }
    : { ...meta, draftVersion: version };
  return (await repo.updateTemplate(tx, current.projectId, current.id, patch))!;
}

/**
 * PATCH: name, type and sample data change in place; content fields make a new version over the working copy (the
 * draft, else the published version), published at once unless `publish: false` saves it as the draft.
 */
export async function updateTemplate(opts: { ctx: AppContext; projectId: string; id: string; input: TemplateInput }) {
  const { ctx, input, projectId, id } = opts;
  const meta = Object.fromEntries(
    Object.entries({ name: input.name, type: input.type, sampleData: input.sampleData }).filter(
      ([, v]) => v !== undefined,
    ),
  ) as Partial<Pick<repo.TemplateRow, 'name' | 'type' | 'sampleData'>>;
  const changesContent = CONTENT_KEYS.some((key) => (input as Record<string, unknown>)[key] !== undefined);
  const before = await requireTemplate({ db: ctx.db, projectId, id });
  const draftOf = async (row: repo.TemplateRow) =>
    row.draftVersion === null ? null : ((await repo.findVersion(ctx.db, row.id, row.draftVersion))?.snapshot ?? null);
  const base = (await draftOf(before)) ?? publishedSnapshot(before);
  const next = changesContent ? await nextSnapshot(ctx, projectId, base, input) : null;
  const row = await ctx.db.transaction(async (tx) => {
    const current = await repo.lockTemplate(tx, projectId, id);
    if (!current) throw notFound('Template');
    if (current.draftVersion !== before.draftVersion || current.version !== before.version)
      throw new AppError('CONFLICT', 'The template was changed at the same time; load it again and retry');
    const updated = next
      ? await saveVersion(ctx, tx, current, next.snapshot, input.publish !== false, meta)
      : ((await repo.updateTemplate(tx, projectId, id, meta)) ?? current);
    const action = next && input.publish === false ? 'template.draft_saved' : 'template.updated';
    await recordTemplateChange(tx, action, current, updated);
    return updated;
  });
  return { ...(await viewOf(ctx.db, row)), warnings: next?.warnings ?? [] };
}

/** Publishes the draft (compiled again, in today's layout); 409 when there is none (another person published it). */
export async function publishTemplate(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { ctx, projectId, id } = opts;
  const before = await requireTemplate({ db: ctx.db, projectId, id });
  const draft = before.draftVersion === null ? null : await repo.findVersion(ctx.db, id, before.draftVersion);
  if (!draft) throw new AppError('CONFLICT', 'The template has no draft to publish');
  const compiled = await recompile(ctx, projectId, draft.snapshot);
  const row = await ctx.db.transaction(async (tx) => {
    const current = await repo.lockTemplate(tx, projectId, id);
    if (!current) throw notFound('Template');
    if (current.draftVersion !== draft.version)
      throw new AppError('CONFLICT', 'The template has no draft to publish (it was published or changed meanwhile)');
    const updated = await saveVersion(ctx, tx, current, compiled, true, {});
    await recordTemplateChange(tx, 'template.published', current, updated, {
      version: [current.version, updated.version],
    });
    return updated;
  });
  return viewOf(ctx.db, row);
}

/** A version's source compiled again (its layout may have changed since). */
async function recompile(ctx: AppContext, projectId: string, snapshot: TemplateSnapshot): Promise<TemplateSnapshot> {
  const out = await compileSource({ db: ctx.db, projectId, source: sourceOf(snapshot) });
  return { ...snapshot, body: out.body, html: out.html, translations: out.translations };
}

/** Makes version `n` the draft; 404 for a version the template does not have. */
export async function restoreVersion(opts: { ctx: AppContext; projectId: string; id: string; version: number }) {
  const { ctx, projectId, id } = opts;
  await requireTemplate({ db: ctx.db, projectId, id });
  const version = await repo.findVersion(ctx.db, id, opts.version);
  if (!version) throw notFound('Version');
  const compiled = await recompile(ctx, projectId, version.snapshot);
  const row = await ctx.db.transaction(async (tx) => {
    const current = await repo.lockTemplate(tx, projectId, id);
    if (!current) throw notFound('Template');
    const updated = await saveVersion(ctx, tx, current, compiled, false, {});
    await recordTemplateChange(tx, 'template.version_restored', current, updated, { restored: [null, opts.version] });
    return updated;
  });
  return viewOf(ctx.db, row);
}

export async function listVersions(opts: { db: Executor; projectId: string; id: string }) {
  await requireTemplate(opts);
  return (await repo.listVersions(opts.db, opts.id)).map(versionSummaryView);
}

export async function getVersion(opts: { db: Executor; projectId: string; id: string; version: number }) {
  await requireTemplate(opts);
  const version = await repo.findVersion(opts.db, opts.id, opts.version);
  if (!version) throw notFound('Version');
  return versionView(version);
}

/** DELETE /templates/{id}: 409 while something relies on it (a workflow step, a confirmation email). */
export async function deleteTemplate(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { projectId, id } = opts;
  if (!isId(id)) throw notFound('Template');
  await opts.ctx.db.transaction(async (tx) => {
    const current = await repo.lockTemplate(tx, projectId, id);
    if (!current) throw notFound('Template');
    const blocker = await opts.ctx.references.blockerOf('template', { db: tx, projectId, id });
    if (blocker)
      throw new AppError('CONFLICT', blocker.message, blocker.suggestion ? { suggestion: blocker.suggestion } : {});
    await repo.deleteTemplate(tx, projectId, id);
    await recordTemplateChange(tx, 'template.deleted', current, null);
  });
  return { id, deleted: true as const };
}

/** The project's template with this id; null when there is none. */
export function findTemplate(opts: { db: Executor; projectId: string; id: string }): Promise<repo.TemplateRow | null> {
  return repo.findTemplate(opts.db, opts.projectId, opts.id);
}

/** The project's templates with these ids, share-locked until the transaction ends (a workflow save names them). */
export function findTemplatesByIds(opts: {
  db: Executor;
  projectId: string;
  ids: string[];
}): Promise<Map<string, repo.TemplateRow>> {
  return repo.findTemplatesByIds(opts.db, opts.projectId, opts.ids);
}

/**
 * Compiles again, in the changing transaction, the published content of the templates that use a layout that
 * changed (`layoutId` null: those that use the project's default); a template that no longer compiles refuses the
 * change with a 409 naming it.
 */
export async function recompileForLayout(opts: {
  db: Executor;
  projectId: string;
  layoutId: string | null;
}): Promise<void> {
  const rows = await repo.findTemplatesUsingLayout(opts.db, opts.projectId, opts.layoutId);
  for (const row of rows) {
    let out;
    try {
      out = await compileSource({ db: opts.db, projectId: opts.projectId, source: sourceOf(publishedSnapshot(row)) });
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 422)
        throw new AppError('CONFLICT', `Template ${row.name} would no longer compile: ${error.message}`);
      throw error;
    }
    await repo.updateTemplate(opts.db, opts.projectId, row.id, {
      body: out.body,
      html: out.html,
      translations: out.translations,
    });
  }
}
