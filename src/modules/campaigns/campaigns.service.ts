import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import type { AbTest, AudienceType, CampaignVariant } from '../../db/schema/campaigns.ts';
import { VARIANT_IDS } from './campaigns.variants.ts';
import { AppError, findOr404, validationError } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { isId, newId } from '../../lib/ids.ts';
import { toPage } from '../../lib/pagination.ts';
import { changesOf, recordAudit } from '../audit/index.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { filterPredicate, recipientPredicate } from '../segments/index.ts';
import { countMatchingContacts } from '../segments/index.ts';
import { requireSegmentRefs } from '../segments/index.ts';
import type { Filter } from '../segments/index.ts';
import { checkFilter, type SegmentRef } from '../segments/index.ts';
import {
  checkTemplateSyntax,
  compileSource,
  requireSendableTemplate,
  sourceOver,
  translationsView,
} from '../templates/index.ts';
import { findTopic } from '../topics/index.ts';
import { getProjectSettings, noSender } from '../settings/index.ts';
import { findCampaignWaits, type CampaignWait } from '../emails/index.ts';
import * as repo from './campaigns.repo.ts';
import type { ContentFormat, Translations } from '../../db/schema/templates.ts';
import { isLocalSendUnderway } from './campaigns.local-time.ts';
import { formatWindow } from './campaigns.send-time.ts';
import type { campaignAction } from './campaigns.schemas.ts';

export interface CampaignInput {
  name?: string | undefined;
  description?: string | null | undefined;
  templateId?: string | undefined;
  subject?: string | undefined;
  format?: ContentFormat | undefined;
  body?: string | undefined;
  content?: unknown;
  layoutId?: string | null | undefined;
  translations?: Translations | null | undefined;
  from?: string | undefined;
  fromName?: string | null | undefined;
  replyTo?: string | null | undefined;
  audienceType?: AudienceType | undefined;
  segmentId?: string | null | undefined;
  audienceFilter?: Record<string, unknown> | null | undefined;
  variants?: Omit<CampaignVariant, 'id'>[] | null | undefined;
  abTest?: AbTest | null | undefined;
  topicId?: string | null | undefined;
  ignoreFrequencyCap?: boolean | undefined;
}

/**
 * A campaign's audience as a filter plus the segments it names: SEGMENT is "member of segmentId"; with a topic,
 * only the audience's contacts in that topic.
 */
export function audienceOf(
  row: Pick<repo.CampaignRow, 'audienceType' | 'segmentId' | 'audienceFilter' | 'segmentRefs' | 'topicId'>,
): { filter: Filter; refs: string[] } | null {
  const audience = baseAudienceOf(row);
  if (!audience || !row.topicId) return audience;
  return { filter: { all: [audience.filter, { topic: row.topicId, operator: 'subscribed' }] }, refs: audience.refs };
}

function baseAudienceOf(
  row: Pick<repo.CampaignRow, 'audienceType' | 'segmentId' | 'audienceFilter' | 'segmentRefs'>,
): { filter: Filter; refs: string[] } | null {
  if (row.audienceType === 'ALL') return { filter: { all: [] }, refs: [] };
  if (row.audienceType === 'SEGMENT')
    return row.segmentId ? { filter: { segment: row.segmentId, operator: 'member' }, refs: [row.segmentId] } : null;
  return row.audienceFilter ? { filter: row.audienceFilter as Filter, refs: row.segmentRefs } : null;
}

/** The topic a campaign names, checked: a topic of the project (422 on topicId otherwise); null clears it. */
async function checkTopic(
  db: Executor,
  projectId: string,
  topicId: string | null | undefined,
): Promise<string | null | undefined> {
  if (topicId === undefined || topicId === null) return topicId;
  const topic = await findTopic({ db, projectId, id: topicId });
  if (!topic) throw validationError('topicId', 'no topic of this project has this id', 'unknown_topic');
  return topic.id;
}

/** The SQL predicate of who gets the campaign now: its audience, subscribed, not suppressed. */
export async function recipientsOf(db: Executor, row: repo.CampaignRow): Promise<SQL | null> {
  const audience = audienceOf(row);
  if (!audience) return null;
  return recipientPredicate(
    await filterPredicate({ db, projectId: row.projectId, ...audience, field: 'audienceFilter' }),
  );
}

async function recipientCountOf(db: Executor, row: repo.CampaignRow): Promise<number> {
  if (!(repo.EDITABLE_STATUSES as readonly string[]).includes(row.status) || isLocalSendUnderway(row))
    return row.recipients;
  const predicate = await recipientsOf(db, row);
  return predicate ? countMatchingContacts({ db, projectId: row.projectId, predicate }) : 0;
}

type CampaignAction = z.infer<typeof campaignAction>;

/**
 * The actions a campaign's state allows, each answered with a 409 otherwise: edits and sends while DRAFT or
 * SCHEDULED (not once a local-time send has begun), pause while its mail goes out, resume when PAUSED, cancel
 * until it is over, a winner while TESTING, delete when nothing is under way, a follow-up once it was sent.
 */
export function allowedActionsOf(row: Pick<repo.CampaignRow, 'status' | 'localTime' | 'sentAt'>): CampaignAction[] {
  const underway = isLocalSendUnderway(row);
  const has = (statuses: readonly string[]) => statuses.includes(row.status);
  const rules: [CampaignAction, boolean][] = [
    ['update', has(repo.EDITABLE_STATUSES) && !underway],
    ['send', has(repo.SENDABLE_STATUSES) && !underway],
    ['unschedule', row.status === 'SCHEDULED' && !underway],
    ['pause', has(['SENDING', 'TESTING']) || underway],
    ['resume', row.status === 'PAUSED'],
    ['cancel', has(['SCHEDULED', 'SENDING', 'TESTING', 'PAUSED'])],
    ['pickWinner', row.status === 'TESTING'],
    ['delete', has(repo.DELETABLE_STATUSES)],
    ['duplicate', true],
    ['test', true],
    ['followUp', row.sentAt !== null && !has(repo.EDITABLE_STATUSES)],
  ];
  return rules.filter(([, allowed]) => allowed).map(([action]) => action);
}

function toCampaignView(row: repo.CampaignRow, recipientCount: number, waitingFor: CampaignWait | null) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    subject: row.subject,
    format: row.format,
    body: row.body,
    content: row.content ?? null,
    ...(row.noLayout ? { layoutId: null } : row.layoutId ? { layoutId: row.layoutId } : {}),
    translations: translationsView(row.translations),
    templateId: row.templateId,
    templateVersion: row.templateVersion,
    from: row.fromEmail,
    fromName: row.fromName,
    replyTo: row.replyTo,
    type: row.audienceType,
    audienceType: row.audienceType,
    segmentId: row.segmentId,
    audienceFilter: row.audienceFilter as Record<string, unknown> | null,
    topicId: row.topicId,
    ignoreFrequencyCap: row.ignoreFrequencyCap,
    status: row.status,
    pausedReason: row.pausedReason,
    waitingFor,
    variants: row.variants?.map((v, i) => ({ ...v, id: VARIANT_IDS[i]! })) ?? null,
    abTest: row.abTest,
    testEndsAt: iso(row.testEndsAt),
    winnerVariantId: row.winnerVariant === null ? null : (VARIANT_IDS[row.winnerVariant] ?? null),
    scheduledAt: iso(row.scheduledAt),
    sendAt: row.localTime && row.localDate ? { localTime: row.localTime, date: row.localDate } : null,
    optimize:
      row.optimizeWithinSeconds !== null
        ? { within: formatWindow(row.optimizeWithinSeconds), holdoutPercent: row.holdoutPercent ?? 0 }
        : null,
    sentAt: iso(row.sentAt),
    allowedActions: allowedActionsOf(row),
    recipientCount,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** What each SENDING campaign among these waits for (its mail held by a warm-up or a provider throttle). */
async function waitsOf(db: Executor, rows: repo.CampaignRow[]): Promise<Map<string, CampaignWait>> {
  const sending = rows.filter((row) => row.status === 'SENDING').map((row) => row.id);
  return sending.length > 0 ? findCampaignWaits({ db, campaignIds: sending }) : new Map();
}

/** The API shape of a campaign, with its recipient count and what its mail waits for. */
export async function campaignView(db: Executor, row: repo.CampaignRow) {
  const waits = await waitsOf(db, [row]);
  return toCampaignView(row, await recipientCountOf(db, row), waits.get(row.id) ?? null);
}

interface Audience {
  audienceType: AudienceType;
  segmentId: string | null;
  audienceFilter: Filter | null;
  refs: SegmentRef[];
}

/** The audience fields a campaign stores, checked: SEGMENT needs segmentId, FILTERED a valid audienceFilter. */
function checkAudience(type: AudienceType, segmentId: string | null | undefined, audienceFilter: unknown): Audience {
  if (type === 'SEGMENT') {
    if (!segmentId)
      throw validationError('segmentId', 'segmentId is required when audienceType is SEGMENT', 'required');
    if (!isId(segmentId))
      throw validationError('segmentId', 'no segment of this project has this id', 'unknown_segment');
    return {
      audienceType: type,
      segmentId: segmentId.toLowerCase(),
      audienceFilter: null,
      refs: [{ id: segmentId.toLowerCase(), path: 'segmentId' }],
    };
  }
  if (type === 'FILTERED') {
    if (audienceFilter === undefined || audienceFilter === null)
      throw validationError('audienceFilter', 'audienceFilter is required when audienceType is FILTERED', 'required');
    const checked = checkFilter(audienceFilter, 'audienceFilter');
    return { audienceType: type, segmentId: null, audienceFilter: checked.filter, refs: checked.refs };
  }
  return { audienceType: type, segmentId: null, audienceFilter: null, refs: [] };
}

/**
 * The A/B test fields a campaign stores, checked: variants and abTest come together (or both null), each
 * variant's Liquid parses and its sender is on a verified domain. Undefined when the input sets neither.
 */
async function checkAbTest(ctx: AppContext, projectId: string, input: CampaignInput, current?: repo.CampaignRow) {
  if (input.variants === undefined && input.abTest === undefined) return undefined;
  const variants = input.variants === undefined ? (current?.variants ?? null) : input.variants;
  const abTest = input.abTest === undefined ? (current?.abTest ?? null) : input.abTest;
  if (variants && !abTest) throw validationError('abTest', 'abTest is required with variants', 'required');
  if (abTest && !variants) throw validationError('variants', 'variants (2–5) are required with abTest', 'required');
  if (variants && current?.status === 'SCHEDULED' && current.localTime) {
    throw validationError(
      'abTest',
      "an A/B test cannot be sent at each recipient's local time: unschedule the campaign first",
      'local_time',
    );
  }
  const format = input.format ?? current?.format ?? 'html';
  if (variants && format !== 'html' && variants.some((v) => v.body !== undefined))
    throw validationError('variants', `variants of a ${format} campaign vary subject and sender, not body`, 'format');
  const translations = input.translations === undefined ? (current?.translations ?? null) : input.translations;
  if (variants && translations && Object.keys(translations).length > 0)
    throw validationError('variants', 'an A/B test cannot be combined with translations', 'translations');
  for (const variant of variants ?? []) checkTemplateSyntax(variant.subject, variant.body);
  await requireVariantSenders(ctx, projectId, variants);
  const stored = variants?.map((v, i) => ({ ...v, id: VARIANT_IDS[i]! })) ?? null;
  return { variants: stored, abTest };
}

/**
 * `input` with what it leaves out taken from the template it names (its published version): subject, content,
 * layout, translations and sender; and the content columns, compiled.
 */
async function withTemplate(
  ctx: AppContext,
  projectId: string,
  given: CampaignInput & { name: string; audienceType: AudienceType },
) {
  const template = given.templateId
    ? await requireSendableTemplate({ db: ctx.db, projectId, id: given.templateId, field: 'templateId' })
    : null;
  const ownContent = given.format !== undefined || given.body !== undefined || given.content !== undefined;
  const input = template
    ? {
        ...given,
        subject: given.subject ?? template.subject,
        ...(ownContent
          ? {}
          : {
              format: template.format,
              ...(template.format === 'html' ? { body: template.body } : { content: template.content }),
              translations: given.translations === undefined ? template.translations : given.translations,
            }),
        ...(given.layoutId === undefined && !ownContent
          ? { layoutId: template.noLayout ? null : (template.layoutId ?? undefined) }
          : {}),
        from: given.from ?? template.fromEmail ?? undefined,
        fromName: given.fromName === undefined ? template.fromName : given.fromName,
        replyTo: given.replyTo === undefined ? template.replyTo : given.replyTo,
      }
    : given;
  if (!input.subject) throw validationError('subject', 'Give `subject`, or a `templateId`', 'required');
  return { input, template, content: await campaignContent(ctx, projectId, input, null) };
}

/** The content columns of a create or update (over `current`), compiled as a send would; 422s name the fields. */
async function campaignContent(
  ctx: AppContext,
  projectId: string,
  input: CampaignInput,
  current: repo.CampaignRow | null,
) {
  const source = sourceOver(input, current);
  const out = await compileSource({ db: ctx.db, projectId, source });
  return {
    subject: source.subject,
    format: source.format,
    body: out.body,
    content: out.content,
    layoutId: source.layoutId,
    noLayout: source.noLayout,
    translations: out.translations,
  };
}

/** Each variant's own sender on a verified domain of the project, as the campaign's (403 otherwise). */
export async function requireVariantSenders(
  ctx: AppContext,
  projectId: string,
  variants: Pick<CampaignVariant, 'from'>[] | null,
): Promise<void> {
  for (const variant of variants ?? [])
    if (variant.from) await requireSenderDomain({ ctx, projectId, from: variant.from });
}

/** The 409 for a local-time send whose emails are queued already: only a cancel changes it now. */
export function underwayConflict(action: string): AppError {
  return new AppError(
    'CONFLICT',
    `This campaign's emails are queued for each recipient's local time: it cannot be ${action} now`,
    { suggestion: 'Cancel it instead.' },
  );
}

/**
 * What the audit log keeps of a campaign: its settings and state; its content and its audience filter (which may
 * name people) are named when they change, not copied.
 */
function auditedFields(row: repo.CampaignRow | null): Record<string, unknown> | null {
  return (
    row && {
      name: row.name,
      description: row.description,
      subject: row.subject,
      body: row.body,
      from: row.fromEmail,
      fromName: row.fromName,
      replyTo: row.replyTo,
      audienceType: row.audienceType,
      segmentId: row.segmentId,
      audienceFilter: row.audienceFilter,
      topicId: row.topicId,
      ignoreFrequencyCap: row.ignoreFrequencyCap,
      variants: row.variants,
      abTest: row.abTest,
      status: row.status,
      scheduledAt: row.scheduledAt,
      localTime: row.localTime,
      localDate: row.localDate,
      pausedReason: row.pausedReason,
      winnerVariantId: row.winnerVariant === null ? null : (VARIANT_IDS[row.winnerVariant] ?? null),
    }
  );
}

/**
 * Records `campaign.<verb>` in the audit log with the fields that changed from `before` to `after` (null for a
 * new or a deleted campaign) and any `extra`; call it in the transaction of the change.
 */
export function recordCampaignChange(
  tx: Executor,
  verb: string,
  before: repo.CampaignRow | null,
  after: repo.CampaignRow | null,
  extra: Record<string, [unknown, unknown]> = {},
): Promise<void> {
  const row = (after ?? before)!;
  const changes = after
    ? changesOf(auditedFields(before), auditedFields(after)!, { redact: ['body', 'audienceFilter', 'variants'] })
    : { name: [row.name, null] };
  const all = { ...extra, ...changes };
  return recordAudit(tx, {
    action: `campaign.${verb}`,
    resourceType: 'campaign',
    resourceId: row.id,
    projectId: row.projectId,
    changes: Object.keys(all).length > 0 ? all : null,
  });
}

/** A campaign of the project, or 404 (also for another project's id). */
export function requireCampaign(opts: { db: Executor; projectId: string; id: string }): Promise<repo.CampaignRow> {
  return findOr404('Campaign', opts.id, () => repo.findCampaign(opts.db, opts.projectId, opts.id));
}

/** A new campaign's sender: its own (or its template's), else the project's default sender; a 422 without either. */
async function campaignSender(
  ctx: AppContext,
  projectId: string,
  input: CampaignInput,
): Promise<{ from: string; fromName: string | null }> {
  if (input.from) return { from: input.from, fromName: input.fromName ?? null };
  const { defaultFrom } = await getProjectSettings({ db: ctx.db, projectId });
  if (!defaultFrom) throw noSender();
  return { from: defaultFrom.email, fromName: input.fromName === undefined ? defaultFrom.name : input.fromName };
}

/** POST /campaigns: a DRAFT, after checking its Liquid, its sender domain and its audience. */
export async function createCampaign(opts: {
  ctx: AppContext;
  projectId: string;
  input: Required<Pick<CampaignInput, 'name' | 'audienceType'>> & CampaignInput;
}) {
  const { ctx, projectId } = opts;
  const { input, content, template } = await withTemplate(ctx, projectId, opts.input);
  const audience = checkAudience(input.audienceType, input.segmentId, input.audienceFilter);
  const { from, fromName } = await campaignSender(ctx, projectId, input);
  await requireSenderDomain({ ctx, projectId, from });
  const test = await checkAbTest(ctx, projectId, input);
  const topicId = await checkTopic(ctx.db, projectId, input.topicId);
  const row = await ctx.db.transaction(async (tx) => {
    const segmentRefs = await requireSegmentRefs(tx, projectId, audience.refs);
    const created = await repo.insertCampaign(tx, {
      topicId: topicId ?? null,
      ignoreFrequencyCap: input.ignoreFrequencyCap ?? false,
      id: newId(),
      projectId,
      name: input.name,
      description: input.description ?? null,
      ...content,
      templateId: template?.id ?? null,
      templateVersion: template?.version ?? null,
      fromEmail: from,
      fromName,
      replyTo: input.replyTo ?? null,
      audienceType: audience.audienceType,
      segmentId: audience.segmentId,
      audienceFilter: audience.audienceFilter,
      segmentRefs,
      ...(test ?? {}),
    });
    await recordCampaignChange(tx, 'created', null, created);
    return created;
  });
  return campaignView(ctx.db, row);
}

/** GET /campaigns/{id}. */
export async function getCampaign(opts: { db: Executor; projectId: string; id: string }) {
  return campaignView(opts.db, await requireCampaign({ db: opts.db, projectId: opts.projectId, id: opts.id }));
}

/** GET /campaigns: newest first, optionally by status. */
export async function listCampaigns(opts: {
  db: Executor;
  projectId: string;
  limit: number;
  cursor?: string | undefined;
  status?: repo.CampaignRow['status'] | undefined;
}) {
  const { rows, total } = await repo.listCampaigns(opts.db, opts.projectId, opts);
  const counts = new Map<string, number>();
  for (const row of rows.slice(0, opts.limit)) counts.set(row.id, await recipientCountOf(opts.db, row));
  const waits = await waitsOf(opts.db, rows.slice(0, opts.limit));
  return toPage(rows, opts.limit, total, (row) =>
    toCampaignView(row, counts.get(row.id) ?? 0, waits.get(row.id) ?? null),
  );
}

/** PATCH /campaigns/{id}: only in DRAFT or SCHEDULED (else 409), with the checks of create. */
export async function updateCampaign(opts: { ctx: AppContext; projectId: string; id: string; input: CampaignInput }) {
  const { ctx, projectId, id, input } = opts;
  const current = await requireCampaign({ db: ctx.db, projectId: projectId, id: id });
  if (isLocalSendUnderway(current)) throw underwayConflict('changed');
  const contentKeys = ['subject', 'format', 'body', 'content', 'layoutId', 'translations'] as const;
  const content = contentKeys.some((key) => input[key] !== undefined)
    ? await campaignContent(ctx, projectId, input, current)
    : {};
  const audienceChanged =
    input.audienceType !== undefined || input.segmentId !== undefined || input.audienceFilter !== undefined;
  const audience = audienceChanged
    ? checkAudience(
        input.audienceType ?? current.audienceType,
        input.segmentId === undefined ? current.segmentId : input.segmentId,
        input.audienceFilter === undefined ? current.audienceFilter : input.audienceFilter,
      )
    : null;
  if (input.from) await requireSenderDomain({ ctx, projectId, from: input.from });
  const test = await checkAbTest(ctx, projectId, input, current);
  const topicId = await checkTopic(ctx.db, projectId, input.topicId);
  const row = await ctx.db.transaction(async (tx) => {
    const segmentRefs = audience ? await requireSegmentRefs(tx, projectId, audience.refs) : undefined;
    const patch = Object.fromEntries(
      Object.entries({
        name: input.name,
        description: input.description,
        ...content,
        fromEmail: input.from,
        fromName: input.fromName,
        replyTo: input.replyTo,
        topicId,
        ignoreFrequencyCap: input.ignoreFrequencyCap,
        ...(audience
          ? {
              audienceType: audience.audienceType,
              segmentId: audience.segmentId,
              audienceFilter: audience.audienceFilter,
              segmentRefs,
            }
          : {}),
        ...(test ?? {}),
      }).filter(([, v]) => v !== undefined),
    );
    const updated = await repo.updateEditableCampaign(tx, projectId, id, patch);
    if (updated) await recordCampaignChange(tx, 'updated', current, updated);
    return updated;
  });
  if (!row) throw new AppError('CONFLICT', 'Only a DRAFT or SCHEDULED campaign can be changed');
  return campaignView(ctx.db, row);
}

/**
 * DELETE /campaigns/{id}: a DRAFT, SENT or CANCELLED campaign (409 while SCHEDULED, SENDING, TESTING or PAUSED); its
 * emails stay.
 */
export async function deleteCampaign(opts: { db: Executor; projectId: string; id: string }) {
  const current = await requireCampaign({ db: opts.db, projectId: opts.projectId, id: opts.id });
  const deleted = await opts.db.transaction(async (tx) => {
    if (!(await repo.deleteIdleCampaign(tx, opts.projectId, opts.id))) return false;
    await recordCampaignChange(tx, 'deleted', current, null);
    return true;
  });
  if (!deleted) {
    throw new AppError('CONFLICT', `A ${current.status} campaign cannot be deleted`, {
      suggestion:
        current.status === 'SCHEDULED' ? 'Unschedule it first.' : 'Cancel it first, or wait until it is SENT.',
    });
  }
  return { id: opts.id, deleted: true as const };
}

/**
 * POST /campaigns/{id}/duplicate: a DRAFT copy of any campaign, "<name> (copy)", same content, audience and sender, no
 * schedule.
 */
export async function duplicateCampaign(opts: { db: Executor; projectId: string; id: string }) {
  const source = await requireCampaign({ db: opts.db, projectId: opts.projectId, id: opts.id });
  const row = await opts.db.transaction(async (tx) => {
    const copy = await repo.insertCampaign(tx, {
      id: newId(),
      projectId: source.projectId,
      name: `${source.name.slice(0, 193)} (copy)`,
      description: source.description,
      subject: source.subject,
      format: source.format,
      body: source.body,
      content: source.content,
      layoutId: source.layoutId,
      noLayout: source.noLayout,
      translations: source.translations,
      templateId: source.templateId,
      templateVersion: source.templateVersion,
      fromEmail: source.fromEmail,
      fromName: source.fromName,
      replyTo: source.replyTo,
      audienceType: source.audienceType,
      segmentId: source.segmentId,
      audienceFilter: source.audienceFilter,
      segmentRefs: source.segmentRefs,
      variants: source.variants,
      abTest: source.abTest,
      topicId: source.topicId,
      ignoreFrequencyCap: source.ignoreFrequencyCap,
    });
    // The entry is the copy's; it names the campaign it copies.
    await recordCampaignChange(tx, 'duplicated', null, copy, { duplicatedFrom: [null, source.id] });
    return copy;
  });
  return campaignView(opts.db, row);
}
