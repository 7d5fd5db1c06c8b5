import { and, asc, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { campaigns, type CampaignStatus } from '../../db/schema/campaigns.ts';
import { contacts } from '../../db/schema/contacts.ts';
import { listPage } from '../../db/list-page.ts';
import { unsentCampaignEmailsSql } from '../emails/index.ts';
import { filterNames } from '../segments/index.ts';

export type CampaignRow = typeof campaigns.$inferSelect;
export type NewCampaign = typeof campaigns.$inferInsert;

/** Allowed status changes; every status update below is guarded by one of these lists. */
export const CAMPAIGN_TRANSITIONS = {
  // Unscheduled: the pending start job finds the schedule gone and does nothing.
  DRAFT: ['SCHEDULED'],
  // Also a paused local-time send resumed while time zones still wait for their turn.
  SCHEDULED: ['DRAFT', 'SCHEDULED', 'PAUSED'],
  // Sent now or at its time; an A/B test's winner picked; resumed.
  SENDING: ['DRAFT', 'SCHEDULED', 'TESTING', 'PAUSED'],
  // An A/B test's test share is sent, then its wait runs (a resumed test goes on waiting).
  TESTING: ['DRAFT', 'SCHEDULED', 'PAUSED'],
  // SCHEDULED: only a local-time send under way (its emails are going out zone by zone).
  PAUSED: ['SENDING', 'TESTING', 'SCHEDULED'],
  SENT: ['SENDING'],
  CANCELLED: ['SCHEDULED', 'SENDING', 'TESTING', 'PAUSED'],
} as const satisfies Partial<Record<CampaignStatus, readonly CampaignStatus[]>>;

/** Statuses a send starts from. */
export const SENDABLE_STATUSES = ['DRAFT', 'SCHEDULED'] as const;

/** Statuses in which a campaign may be deleted: nothing of it is on its way (its emails stay in the log). */
export const DELETABLE_STATUSES = ['DRAFT', 'SENT', 'CANCELLED'] as const;

/** Statuses in which the content and audience may still change. */
export const EDITABLE_STATUSES = ['DRAFT', 'SCHEDULED'] as const;

type Settable = Partial<
  Pick<
    NewCampaign,
    | 'scheduledAt'
    | 'sentAt'
    | 'completedAt'
    | 'fanoutCursor'
    | 'fanoutDone'
    | 'recipients'
    | 'pausedReason'
    | 'resumedAt'
    | 'fanoutPhase'
    | 'fanoutSeen'
    | 'testEndsAt'
    | 'winnerVariant'
    | 'localTime'
    | 'localDate'
    | 'localEndsAt'
    | 'unknownTimeZones'
    | 'optimizeWithinSeconds'
    | 'holdoutPercent'
  >
>;

/**
 * A local-time send whose emails are queued already (SCHEDULED, sending begun): only a cancel changes it now; its
 * fan-out and the end of its wait move it on.
 */
const localSendUnderway = sql`(${campaigns.status} = 'SCHEDULED' AND ${campaigns.localTime} IS NOT NULL AND
  ${campaigns.sentAt} IS NOT NULL)`;

/** Creates a campaign (DRAFT). */
export async function insertCampaign(db: Executor, row: NewCampaign): Promise<CampaignRow> {
  const [created] = await db.insert(campaigns).values(row).returning();
  return created!;
}

/** A campaign of the project, or null (another project's id is simply not found). */
export async function findCampaign(db: Executor, projectId: string, id: string): Promise<CampaignRow | null> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.projectId, projectId), eq(campaigns.id, id)));
  return row ?? null;
}

/** A campaign by id alone, for jobs (which carry no project). */
export async function findCampaignById(db: Executor, id: string): Promise<CampaignRow | null> {
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  return row ?? null;
}

/** Locks the campaign row until the transaction ends (fan-out batches and cancel take turns). */
export async function lockCampaign(tx: Executor, id: string): Promise<CampaignRow | null> {
  const [row] = await tx.select().from(campaigns).where(eq(campaigns.id, id)).for('update');
  return row ?? null;
}

/** A newest-first page of the project's campaigns (optionally of one status), with the total. */
export async function listCampaigns(
  db: Executor,
  projectId: string,
  opts: { limit: number; cursor?: string | undefined; status?: CampaignStatus | undefined },
) {
  const where = and(eq(campaigns.projectId, projectId), opts.status ? eq(campaigns.status, opts.status) : undefined);
  return listPage(db, campaigns, where, opts);
}

/**
 * Changes content or audience, only while the campaign is DRAFT or SCHEDULED (and no local-time send is under way);
 * null otherwise.
 */
export async function updateEditableCampaign(
  db: Executor,
  projectId: string,
  id: string,
  patch: Partial<NewCampaign>,
): Promise<CampaignRow | null> {
  const [row] = await db
    .update(campaigns)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(
      and(
        eq(campaigns.projectId, projectId),
        eq(campaigns.id, id),
        inArray(campaigns.status, [...EDITABLE_STATUSES]),
        sql`NOT ${localSendUnderway}`,
      ),
    )
    .returning();
  return row ?? null;
}

/** Deletes a campaign, only while it is DRAFT, SENT or CANCELLED (never while it sends or waits to). */
export async function deleteIdleCampaign(db: Executor, projectId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(campaigns)
    .where(
      and(eq(campaigns.projectId, projectId), eq(campaigns.id, id), inArray(campaigns.status, [...DELETABLE_STATUSES])),
    )
    .returning({ id: campaigns.id });
  return rows.length === 1;
}

/** What a local-time send under way may become here: only CANCELLED and PAUSED (endLocalWait moves it on). */
function underwayRule(to: keyof typeof CAMPAIGN_TRANSITIONS): SQL | undefined {
  if (to === 'CANCELLED') return undefined;
  // SCHEDULED → PAUSED is for a local-time send under way alone: a campaign merely waiting for its time is unscheduled
  // instead.
  if (to === 'PAUSED') return sql`(${campaigns.status} <> 'SCHEDULED' OR ${localSendUnderway})`;
  return sql`NOT ${localSendUnderway}`;
}

/** Moves a campaign to `to` when its status allows it; null = it was not in an allowed state. */
export async function transitionCampaign(
  db: Executor,
  id: string,
  to: keyof typeof CAMPAIGN_TRANSITIONS,
  set: Settable = {},
  projectId?: string,
  from: readonly CampaignStatus[] = CAMPAIGN_TRANSITIONS[to],
): Promise<CampaignRow | null> {
  const allowed = from.filter((status) => (CAMPAIGN_TRANSITIONS[to] as readonly CampaignStatus[]).includes(status));
  const [row] = await db
    .update(campaigns)
    .set({ ...set, status: to, updatedAt: sql`now()` })
    .where(
      and(
        eq(campaigns.id, id),
        projectId ? eq(campaigns.projectId, projectId) : undefined,
        inArray(campaigns.status, allowed),
        underwayRule(to),
      ),
    )
    .returning();
  return row ?? null;
}

/** Stores the fan-out checkpoint (last contact id given an email) with the batch's count. */
export async function advanceFanout(
  tx: Executor,
  id: string,
  next: {
    cursor: string | null;
    added: number;
    done: boolean;
    contentId: string;
    seen?: number;
    variantContentIds?: string[] | null;
    localeContentIds?: Record<string, string> | null;
    testEndsAt?: Date;
    /** A local-time batch: its latest due time and its recipients with an unknown time zone. */
    local?: { lastDueAt: Date | null; unknownTimeZones: number };
  },
): Promise<void> {
  await tx
    .update(campaigns)
    .set({
      fanoutCursor: next.cursor,
      contentId: next.contentId,
      ...(next.seen === undefined ? {} : { fanoutSeen: sql`${campaigns.fanoutSeen} + ${next.seen}` }),
      ...(next.variantContentIds ? { variantContentIds: next.variantContentIds } : {}),
      ...(next.localeContentIds ? { localeContentIds: next.localeContentIds } : {}),
      ...(next.testEndsAt ? { testEndsAt: next.testEndsAt } : {}),
      ...(next.local
        ? {
            unknownTimeZones: sql`${campaigns.unknownTimeZones} + ${next.local.unknownTimeZones}`,
            ...(next.local.lastDueAt
              ? {
                  localEndsAt: sql`greatest(${campaigns.localEndsAt},
                    ${next.local.lastDueAt.toISOString()}::timestamptz)`,
                }
              : {}),
          }
        : {}),
      recipients: sql`${campaigns.recipients} + ${next.added}`,
      fanoutDone: next.done,
      updatedAt: sql`now()`,
    })
    .where(eq(campaigns.id, id));
}

/** SENDING → SENT once the fan-out is over and no email of the campaign is still on its way. */
export async function completeCampaign(db: Executor, id: string): Promise<CampaignRow | null> {
  const rows = await db
    .update(campaigns)
    .set({ status: 'SENT', completedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(campaigns.id, id),
        inArray(campaigns.status, [...CAMPAIGN_TRANSITIONS.SENT]),
        eq(campaigns.fanoutDone, true),
        sql`NOT ${unsentCampaignEmailsSql(id)}`,
      ),
    )
    .returning();
  return rows[0] ?? null;
}

/**
 * SENDING and TESTING campaigns untouched for `idleSeconds`: the sweep re-kicks their fan-out, winner or completion.
 * Also local-time sends under way whose fan-out stalled, or whose last turn is that long past while still SCHEDULED.
 */
export async function findIdleSendingCampaigns(db: Executor, idleSeconds: number): Promise<CampaignRow[]> {
  const idle = sql`now() - make_interval(secs => ${idleSeconds})`;
  const stalledLocal = sql`(${localSendUnderway} AND (NOT ${campaigns.fanoutDone} OR
    coalesce(${campaigns.localEndsAt}, ${campaigns.sentAt}) < ${idle}))`;
  return db
    .select()
    .from(campaigns)
    .where(
      and(or(inArray(campaigns.status, ['SENDING', 'TESTING']), stalledLocal), sql`${campaigns.updatedAt} < ${idle}`),
    )
    .limit(100);
}

/**
 * Local-time sends under way (their emails going out zone by zone while SCHEDULED): the reputation guard watches them.
 */
export async function findLocalSendsUnderway(db: Executor): Promise<CampaignRow[]> {
  return db.select().from(campaigns).where(localSendUnderway).orderBy(asc(campaigns.sentAt)).limit(100);
}

/** A local-time send whose audience is all queued leaves SCHEDULED for SENDING (its last turn has come). */
export async function endLocalWait(tx: Executor, id: string): Promise<CampaignRow | null> {
  const [row] = await tx
    .update(campaigns)
    .set({ status: 'SENDING', updatedAt: sql`now()` })
    .where(and(eq(campaigns.id, id), sql`${localSendUnderway}`, eq(campaigns.fanoutDone, true)))
    .returning();
  return row ?? null;
}

/** The next `limit` recipients after contact id `after` (keyset by id): one fan-out batch. */
export async function findRecipientBatch(
  tx: Executor,
  projectId: string,
  recipients: SQL,
  after: string | null,
  limit: number,
) {
  return tx
    .select({
      id: contacts.id,
      email: contacts.email,
      subscribed: contacts.subscribed,
      data: contacts.data,
      locale: contacts.locale,
      engagementHours: contacts.engagementHours,
    })
    .from(contacts)
    .where(and(eq(contacts.projectId, projectId), after ? gt(contacts.id, after) : undefined, recipients))
    .orderBy(asc(contacts.id))
    .limit(limit);
}

/** Campaign statuses in which the audience is still to be resolved: its segments must stay. */
const UNSENT_CAMPAIGN_STATUSES = ['DRAFT', 'SCHEDULED', 'SENDING', 'TESTING', 'PAUSED'] as const;

/** Unsent campaigns of the project whose `column` is `value` (up to 5 ids). */
async function unsentCampaignsWith(
  db: Executor,
  projectId: string,
  column: typeof campaigns.topicId | typeof campaigns.layoutId,
  value: string,
): Promise<string[]> {
  const rows = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.projectId, projectId),
        inArray(campaigns.status, [...UNSENT_CAMPAIGN_STATUSES]),
        eq(column, value),
      ),
    )
    .limit(5);
  return rows.map((r) => r.id);
}

/** Unsent campaigns of the project limited to this topic (up to 5 ids). */
export const campaignsNamingTopic = (db: Executor, projectId: string, topicId: string) =>
  unsentCampaignsWith(db, projectId, campaigns.topicId, topicId);

/** Unsent campaigns of the project that name this layout (up to 5 ids). */
export const campaignsNamingLayout = (db: Executor, projectId: string, layoutId: string) =>
  unsentCampaignsWith(db, projectId, campaigns.layoutId, layoutId);

/** Unsent FILTERED campaigns of the project whose audience filter has a condition on this topic (up to 5 ids). */
export async function campaignsFilteringOnTopic(db: Executor, projectId: string, topicId: string): Promise<string[]> {
  const rows = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.projectId, projectId),
        inArray(campaigns.status, [...UNSENT_CAMPAIGN_STATUSES]),
        eq(campaigns.audienceType, 'FILTERED'),
        filterNames(sql`${campaigns.audienceFilter}`, { topic: topicId }),
      ),
    )
    .limit(5);
  return rows.map((r) => r.id);
}

/** Unsent campaigns of the project whose audience names this segment (up to 5 ids). */
export async function campaignsNamingSegment(db: Executor, projectId: string, segmentId: string): Promise<string[]> {
  const rows = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.projectId, projectId),
        inArray(campaigns.status, [...UNSENT_CAMPAIGN_STATUSES]),
        sql`${segmentId}::uuid = ANY (${campaigns.segmentRefs})`,
      ),
    )
    .limit(5);
  return rows.map((r) => r.id);
}
