// Signup forms: their definition (fields, what a submission subscribes to, how it answers) and counts.
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import type { FormField } from '../../db/schema/index.ts';
import { AppError, findOr404, notFound, validationError } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { newId } from '../../lib/ids.ts';
import { toPage } from '../../lib/pagination.ts';
import { changesOf, recordAudit } from '../audit/index.ts';
import { requireListSegment } from '../segments/index.ts';
import { getProjectSettings } from '../settings/index.ts';
import { requireTopicIds } from '../topics/index.ts';
import * as repo from './forms.repo.ts';
import type { CreateFormInput, FormFieldInput, UpdateFormInput } from './forms.schemas.ts';

export type { FormRow } from './forms.repo.ts';

/** The URL of a form's hosted page. */
export const formUrl = (ctx: AppContext, id: string) => `${ctx.config.publicUrl}/f/${id}`;

/** The API shape of a form, with its counts. */
export function toFormView(ctx: AppContext, row: repo.FormRow, counts: repo.FormCounts | undefined) {
  return {
    id: row.id,
    name: row.name,
    fields: row.fields.map((f) => ({
      key: f.key,
      label: f.label,
      type: f.type,
      required: f.required,
      ...(f.options ? { options: f.options } : {}),
    })),
    topicIds: row.topicIds,
    segmentId: row.segmentId,
    doubleOptIn: row.doubleOptIn,
    captcha: row.captcha,
    successMessage: row.successMessage,
    redirectUrl: row.redirectUrl,
    locale: row.locale,
    consentText: row.consentText,
    url: formUrl(ctx, row.id),
    submissions: counts?.submissions ?? 0,
    confirmed: counts?.confirmed ?? 0,
    spam: row.spam,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** Checks the fields (exactly one email field, unique keys, options only and always for select). */
function checkedFields(fields: FormFieldInput[]): FormField[] {
  const emails = fields.filter((f) => f.type === 'email').length;
  if (emails !== 1) {
    const message = `A form has exactly one email field (this one has ${emails})`;
    throw validationError('fields', message, emails === 0 ? 'email_field_missing' : 'email_field_repeated');
  }
  const seen = new Set<string>();
  return fields.map((f, i) => {
    const key = f.key.toLowerCase();
    if (seen.has(key)) throw validationError(`fields.${i}.key`, `The key ${f.key} is used twice`, 'duplicate');
    seen.add(key);
    if (f.type === 'select' && !f.options)
      throw validationError(`fields.${i}.options`, 'A select field needs its options', 'required');
    if (f.type !== 'select' && f.options)
      throw validationError(`fields.${i}.options`, 'Only a select field has options', 'invalid');
    return {
      key: f.key,
      label: f.label,
      type: f.type,
      required: f.type === 'email' || f.required === true,
      ...(f.options ? { options: f.options } : {}),
    };
  });
}

/** The form's references, checked: topics of the project and a list (STATIC segment) of it, as 422s. */
async function checkReferences(db: Executor, projectId: string, input: UpdateFormInput): Promise<string[] | undefined> {
  const topicIds = input.topicIds
    ? [...new Set(await requireTopicIds({ db, projectId, ids: input.topicIds, field: 'topicIds' }))]
    : undefined;
  // An empty id is checked too: it names no segment (null is how a form leaves lists).
  if (input.segmentId !== undefined && input.segmentId !== null) {
    await requireListSegment({ db, projectId, id: input.segmentId }).catch((error: unknown) => {
      if (!(error instanceof AppError)) throw error;
      const dynamic = error.code === 'CONFLICT';
      const message = dynamic
        ? 'The segment is DYNAMIC: a form adds people to a list (a STATIC segment)'
        : 'No segment of this project has this id';
      throw validationError('segmentId', message, dynamic ? 'not_a_list' : 'unknown_segment');
    });
  }
  return topicIds;
}

/** Double opt-in needs the project's confirmation email (409 otherwise, as for signups with a public key). */
async function checkDoubleOptIn(db: Executor, projectId: string, doubleOptIn: boolean | undefined) {
  if (!doubleOptIn) return;
  const settings = await getProjectSettings({ db, projectId });
  if (!settings.doubleOptIn) {
    throw new AppError('CONFLICT', 'Double opt-in is not set up for this project', {
      suggestion: 'Choose a confirmation template with PATCH /settings {"doubleOptIn": {"templateId": "…"}}',
    });
  }
}

const AUDITED = ['name', 'fields', 'topicIds', 'segmentId', 'doubleOptIn', 'captcha', 'successMessage'] as const;
const auditedOf = (row: repo.FormRow | null) =>
  row && {
    ...Object.fromEntries(AUDITED.map((k) => [k, row[k]])),
    redirectUrl: row.redirectUrl,
    locale: row.locale,
    consentText: row.consentText,
  };

function recordFormChange(tx: Executor, verb: string, before: repo.FormRow | null, after: repo.FormRow | null) {
  const row = (after ?? before)!;
  return recordAudit(tx, {
    action: `form.${verb}`,
    resourceType: 'form',
    resourceId: row.id,
    projectId: row.projectId,
    changes: after ? changesOf(auditedOf(before), auditedOf(after)!) : { name: [row.name, null] },
  });
}

/** POST /forms. */
export async function createForm(opts: { ctx: AppContext; projectId: string; input: CreateFormInput }) {
  const { ctx, projectId, input } = opts;
  const fields = checkedFields(input.fields);
  const topicIds = (await checkReferences(ctx.db, projectId, input)) ?? [];
  await checkDoubleOptIn(ctx.db, projectId, input.doubleOptIn);
  const row = await ctx.db.transaction(async (tx) => {
    const created = await repo.insertForm(tx, {
      id: newId(),
      projectId,
      name: input.name,
      fields,
      topicIds,
      segmentId: input.segmentId?.toLowerCase() ?? null,
      doubleOptIn: input.doubleOptIn ?? false,
      captcha: input.captcha ?? 'none',
      successMessage: input.successMessage ?? null,
      redirectUrl: input.redirectUrl ?? null,
      locale: input.locale ?? null,
      consentText: input.consentText ?? null,
    });
    await recordFormChange(tx, 'created', null, created);
    return created;
  });
  return toFormView(ctx, row, undefined);
}

/** A form of the project, or 404. */
export function requireForm(db: Executor, projectId: string, id: string): Promise<repo.FormRow> {
  return findOr404('Form', id, () => repo.findForm(db, projectId, id.toLowerCase()));
}

/** GET /forms/{id}. */
export async function getForm(opts: { ctx: AppContext; projectId: string; id: string }) {
  const row = await requireForm(opts.ctx.db, opts.projectId, opts.id);
  return toFormView(opts.ctx, row, (await repo.countSubmissions(opts.ctx.db, [row.id])).get(row.id));
}

/** GET /forms: newest first, with counts. */
export async function listForms(opts: { ctx: AppContext; projectId: string; limit: number; cursor?: string }) {
  const { rows, total } = await repo.listForms(opts.ctx.db, opts.projectId, opts);
  const counts = await repo.countSubmissions(
    opts.ctx.db,
    rows.map((r) => r.id),
  );
  return toPage(rows, opts.limit, total, (row) => toFormView(opts.ctx, row, counts.get(row.id)));
}

/** PATCH /forms/{id}: only what is given changes. */
export async function updateForm(opts: { ctx: AppContext; projectId: string; id: string; input: UpdateFormInput }) {
  const { ctx, projectId, input } = opts;
  const before = await requireForm(ctx.db, projectId, opts.id);
  const fields = input.fields ? checkedFields(input.fields) : undefined;
  const topicIds = await checkReferences(ctx.db, projectId, input);
  await checkDoubleOptIn(ctx.db, projectId, input.doubleOptIn);
  const patch = Object.fromEntries(
    Object.entries({
      ...input,
      fields,
      topicIds,
      segmentId: input.segmentId === undefined ? undefined : (input.segmentId?.toLowerCase() ?? null),
    }).filter(([, v]) => v !== undefined),
  );
  const row = await ctx.db.transaction(async (tx) => {
    const after = await repo.updateForm(tx, projectId, before.id, patch);
    if (!after) throw notFound('Form');
    await recordFormChange(tx, 'updated', before, after);
    return after;
  });
  return toFormView(ctx, row, (await repo.countSubmissions(ctx.db, [row.id])).get(row.id));
}

/** DELETE /forms/{id}: the form and its submissions' counts (the contacts it made stay). */
export async function deleteForm(opts: { ctx: AppContext; projectId: string; id: string }) {
  const before = await requireForm(opts.ctx.db, opts.projectId, opts.id);
  await opts.ctx.db.transaction(async (tx) => {
    const gone = await repo.deleteForm(tx, opts.projectId, before.id);
    if (gone) await recordFormChange(tx, 'deleted', gone, null);
  });
  return { id: before.id, deleted: true as const };
}
