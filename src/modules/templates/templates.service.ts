import type { Executor } from '../../db/client.ts';
import type { AppContext } from '../../context.types.ts';
import type { TemplateType } from '../../db/schema/templates.ts';
import { AppError, findOr404, notFound } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { isId, newId } from '../../lib/ids.ts';
import { toPage } from '../../lib/pagination.ts';
import { RenderBudgetError } from '../../mail/render-batch.ts';
import { TemplateError, validateTemplate } from '../../mail/render.ts';
import { changesOf, recordAudit } from '../audit/index.ts';
import { requireSenderDomain } from '../domains/index.ts';
import * as repo from './templates.repo.ts';

export type { TemplateRow } from './templates.repo.ts';

export function toTemplateView(row: repo.TemplateRow) {
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    body: row.body,
    type: row.type,
    from: row.fromEmail,
    fromName: row.fromName,
    replyTo: row.replyTo,
    sampleData: row.sampleData ?? null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/**
 * A template that does not parse (or render) as a 422 naming the request field, with line and column; one
 * whose messages overrun the request's render budget as a 422 `render_budget` on the body's field.
 */
export function templateProblem(
  error: unknown,
  fields: { subject: string; html: string; text?: string },
): AppError | null {
  if (error instanceof RenderBudgetError) {
    const message = `${error.message}: simplify the template, or send to fewer recipients per request`;
    return new AppError('VALIDATION_ERROR', `${fields.html}: ${message}`, {
      errors: [{ field: fields.html, message, code: 'render_budget' }],
    });
  }
  if (!(error instanceof TemplateError)) return null;
  const field =
    error.field === 'subject' ? fields.subject : error.field === 'html' ? fields.html : (fields.text ?? 'text');
  const code =
    error.kind === 'syntax' ? 'template_syntax' : error.kind === 'limit' ? 'template_limit' : 'template_render';
  return new AppError('VALIDATION_ERROR', `${field}: ${error.message.replace(/^\w+: /, '')}`, {
    errors: [{ field, message: error.message.replace(/^\w+: /, ''), code }],
  });
}

/**
 * Checks that a subject and an HTML body parse as Liquid; a 422 names the request field (`subject`, `body` unless
 * told).
 */
export function checkTemplateSyntax(
  subject: string | undefined,
  body: string | undefined,
  fields = { subject: 'subject', html: 'body' },
): void {
  try {
    if (subject !== undefined) validateTemplate(subject, { field: 'subject' });
    if (body !== undefined) validateTemplate(body, { field: 'html' });
  } catch (error) {
    throw templateProblem(error, fields) ?? error;
  }
}

interface TemplateInput {
  name?: string | undefined;
  subject?: string | undefined;
  body?: string | undefined;
  type?: TemplateType | undefined;
  from?: string | null | undefined;
  fromName?: string | null | undefined;
  replyTo?: string | null | undefined;
  sampleData?: Record<string, unknown> | null | undefined;
}

/** What the audit log keeps of a template: its fields; the body and sample data (large) named, not copied. */
function auditedFields(row: repo.TemplateRow | null): Record<string, unknown> | null {
  return (
    row && {
      name: row.name,
      type: row.type,
      subject: row.subject,
      from: row.fromEmail,
      fromName: row.fromName,
      replyTo: row.replyTo,
      body: row.body,
      sampleData: row.sampleData,
    }
  );
}

/**
 * Records `template.<verb>` in the audit log with the fields that changed (a deleted template's name), in the
 * transaction of the change.
 */
function recordTemplateChange(
  tx: Executor,
  verb: string,
  before: repo.TemplateRow | null,
  after: repo.TemplateRow | null,
): Promise<void> {
  const row = (after ?? before)!;
  const changes = after
    ? changesOf(auditedFields(before), auditedFields(after)!, { redact: ['body', 'sampleData'] })
    : { name: [row.name, null] as [unknown, unknown] };
  return recordAudit(tx, {
    action: `template.${verb}`,
    resourceType: 'template',
    resourceId: row.id,
    projectId: row.projectId,
    changes,
  });
}

/** Creates a template after checking its Liquid and its sender domain. */
export async function createTemplate(opts: {
  ctx: AppContext;
  projectId: string;
  input: Required<Pick<TemplateInput, 'name' | 'subject' | 'body' | 'type'>> & TemplateInput;
}) {
  const { input } = opts;
  checkTemplateSyntax(input.subject, input.body);
  if (input.from) await requireSenderDomain({ ctx: opts.ctx, projectId: opts.projectId, from: input.from });
  const row = await opts.ctx.db.transaction(async (tx) => {
    const created = await repo.insertTemplate(tx, {
      id: newId(),
      projectId: opts.projectId,
      name: input.name,
      subject: input.subject,
      body: input.body,
      type: input.type,
      fromEmail: input.from?.toLowerCase() ?? null,
      fromName: input.fromName ?? null,
      replyTo: input.replyTo ?? null,
      sampleData: input.sampleData ?? null,
    });
    await recordTemplateChange(tx, 'created', null, created);
    return created;
  });
  return toTemplateView(row);
}

/** A template of the project, or 404 (also for another project's id). */
export function requireTemplate(opts: { db: Executor; projectId: string; id: string }): Promise<repo.TemplateRow> {
  return findOr404('Template', opts.id, () => repo.findTemplate(opts.db, opts.projectId, opts.id));
}

export async function getTemplate(opts: { db: Executor; projectId: string; id: string }) {
  return toTemplateView(await requireTemplate({ db: opts.db, projectId: opts.projectId, id: opts.id }));
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
  return toPage(rows, opts.limit, total, toTemplateView);
}

/**
 * Updates the given fields, with the same checks as on create; 409 when a module relies on what the change
 * would remove (the confirmation template of double opt-in keeps its sender and its {{confirmUrl}} link).
 */
export async function updateTemplate(opts: { ctx: AppContext; projectId: string; id: string; input: TemplateInput }) {
  const { input, projectId, id } = opts;
  await requireTemplate({ db: opts.ctx.db, projectId, id });
  checkTemplateSyntax(input.subject, input.body);
  if (input.from) await requireSenderDomain({ ctx: opts.ctx, projectId, from: input.from });
  const patch = Object.fromEntries(
    Object.entries({
      name: input.name,
      subject: input.subject,
      body: input.body,
      type: input.type,
      fromEmail: input.from === undefined ? undefined : (input.from?.toLowerCase() ?? null),
      fromName: input.fromName,
      replyTo: input.replyTo,
      sampleData: input.sampleData,
    }).filter(([, v]) => v !== undefined),
  );
  const row = await opts.ctx.db.transaction(async (tx) => {
    const current = await repo.lockTemplate(tx, projectId, id);
    if (!current) throw notFound('Template');
    const after = {
      body: input.body ?? current.body,
      fromEmail: patch.fromEmail === undefined ? current.fromEmail : (patch.fromEmail as string | null),
    };
    const blocker = await opts.ctx.references.templateChangeBlocker({ db: tx, projectId, id, ...after });
    if (blocker)
      throw new AppError('CONFLICT', blocker.message, blocker.suggestion ? { suggestion: blocker.suggestion } : {});
    const updated = await repo.updateTemplate(tx, projectId, id, patch);
    if (updated) await recordTemplateChange(tx, 'updated', current, updated);
    return updated;
  });
  if (!row) throw notFound('Template');
  return toTemplateView(row);
}

/** DELETE /templates/{id}: 409 while a SEND_EMAIL step of a workflow names it (in a version still in use). */
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
    await recordTemplateChange(tx, 'deleted', current, null);
  });
  return { id, deleted: true as const };
}

/** The project's template with this id; null when there is none. */
export async function findTemplate(opts: {
  db: Executor;
  projectId: string;
  id: string;
}): Promise<repo.TemplateRow | null> {
  return repo.findTemplate(opts.db, opts.projectId, opts.id);
}

/** The project's templates with these ids, share-locked until the transaction ends (a workflow save names them). */
export async function findTemplatesByIds(opts: {
  db: Executor;
  projectId: string;
  ids: string[];
}): Promise<Map<string, repo.TemplateRow>> {
  return repo.findTemplatesByIds(opts.db, opts.projectId, opts.ids);
}
