// Follow-ups: a ready DRAFT to the recipients of a campaign who did not open it (or click in it), as people.
import type { AppContext } from '../../context.types.ts';
import { newId } from '../../lib/ids.ts';
import { checkTemplateSyntax } from '../templates/index.ts';
import * as repo from './campaigns.repo.ts';
import { campaignView, recordCampaignChange, requireCampaign } from './campaigns.service.ts';
import { variantRow } from './campaigns.variants.ts';

/**
 * POST /campaigns/{id}/follow-up: a FILTERED DRAFT whose audience is the original's recipients (an email of it
 * was handed over) with no human open (nonOpeners) or click (nonClickers) of it. The filter is evaluated when the
 * follow-up is sent, so opens until then still count, and only contacts still subscribed (and still in the
 * original's topic, when it had one) get it. It carries the original's content, or the winning variant's for an
 * A/B test that has one: what the rest of the audience got.
 */
export async function createFollowUp(opts: {
  ctx: AppContext;
  projectId: string;
  id: string;
  audience: 'nonOpeners' | 'nonClickers';
  subject?: string | undefined;
  body?: string | undefined;
}) {
  const { ctx, projectId } = opts;
  const source = await requireCampaign({ db: ctx.db, projectId, id: opts.id });
  checkTemplateSyntax(opts.subject, opts.body);
  const activity = opts.audience === 'nonOpeners' ? 'opened' : 'clicked';
  const audienceFilter = {
    all: [
      { activity: 'sent', operator: 'performed', campaignId: source.id },
      { activity, operator: 'notPerformed', campaignId: source.id, human: true },
    ],
  };
  const label = opts.audience === 'nonOpeners' ? 'non-openers' : 'non-clickers';
  const content = source.winnerVariant === null ? source : variantRow(source, source.winnerVariant);
  const row = await ctx.db.transaction(async (tx) => {
    const created = await repo.insertCampaign(tx, {
      id: newId(),
      projectId,
      name: `${source.name.slice(0, 180)} (follow-up to ${label})`,
      description: source.description,
      subject: opts.subject ?? content.subject,
      body: opts.body ?? content.body,
      fromEmail: content.fromEmail,
      fromName: content.fromName,
      replyTo: source.replyTo,
      audienceType: 'FILTERED',
      segmentId: null,
      audienceFilter,
      segmentRefs: [],
      topicId: source.topicId,
    });
    await recordCampaignChange(tx, 'follow_up_created', null, created, {
      followUpTo: [null, source.id],
      audience: [null, opts.audience],
    });
    return created;
  });
  return campaignView(ctx.db, row);
}
