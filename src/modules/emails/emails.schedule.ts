// Scheduled emails: when one may be scheduled, and the two changes a sender makes to an email that has not gone out
// (reschedule, cancel). Each change is one guarded UPDATE, so it cannot cross the worker: an email the worker has
// claimed is SENDING, and neither change applies to it (409).
import { byDetail, recordEmailStep } from './emails.timeline.ts';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError, findOr404 } from '../../lib/errors.ts';
import { recordAudit } from '../audit/index.ts';
import { cancelUnsentEmail, findEmail, moveScheduledEmail } from './emails.repo.ts';
import { toEmailView, type EmailView } from './emails.view.ts';
import { emitEmailEvents } from './emails.webhooks.ts';

export const MAX_SCHEDULE_DAYS = 30;

/** `scheduledAt`: an ISO 8601 time with its offset, in the future, at most 30 days ahead. */
export const scheduledAtSchema = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time such as 2030-01-31T09:00:00Z' })
  .refine((value) => Date.parse(value) > Date.now(), 'must be in the future')
  .refine(
    (value) => Date.parse(value) <= Date.now() + MAX_SCHEDULE_DAYS * 86_400_000,
    `must be at most ${MAX_SCHEDULE_DAYS} days ahead`,
  )
  .meta({
    description: `When to send: ISO 8601, in the future, at most ${MAX_SCHEDULE_DAYS} days ahead`,
    example: '2030-01-31T09:00:00Z',
  });

function notNow(email: { status: string }, action: string): AppError {
  return new AppError('CONFLICT', `The email is ${email.status}: only ${action}`);
}

/** PATCH /emails/{id}: moves a SCHEDULED email to another time (409 once it is no longer SCHEDULED). */
export async function rescheduleEmail(opts: {
  ctx: AppContext;
  projectId: string;
  id: string;
  scheduledAt: string | Date;
}): Promise<EmailView> {
  const { ctx, projectId, id } = opts;
  const at = new Date(opts.scheduledAt);
  const email = await findOr404('Email', id, () => findEmail(ctx.db, projectId, id));
  const row = await ctx.db.transaction(async (tx) => {
    const moved = await moveScheduledEmail(tx, projectId, id, at);
    if (moved) {
      await recordAudit(tx, {
        action: 'email.rescheduled',
        resourceType: 'email',
        resourceId: id,
        projectId,
        changes: { scheduledAt: [email.scheduledAt?.toISOString() ?? null, at.toISOString()] },
      });
    }
    return moved;
  });
  if (!row) throw notNow(email, 'a SCHEDULED email can be rescheduled');
  return toEmailView(row);
}

/**
 * POST /emails/{id}/cancel: a SCHEDULED, QUEUED or DEFERRED email becomes CANCELLED (409 otherwise), `email.cancelled`.
 */
export async function cancelEmail(opts: { ctx: AppContext; projectId: string; id: string }): Promise<EmailView> {
  const { ctx, projectId, id } = opts;
  const email = await findOr404('Email', id, () => findEmail(ctx.db, projectId, id));
  const row = await ctx.db.transaction(async (tx) => {
    const cancelled = await cancelUnsentEmail(tx, projectId, id);
    if (cancelled) {
      await emitEmailEvents(tx, [{ email: cancelled, type: 'email.cancelled' }]);
      await recordEmailStep(tx, cancelled, 'cancelled', byDetail());
      await recordAudit(tx, {
        action: 'email.cancelled',
        resourceType: 'email',
        resourceId: id,
        projectId,
        changes: { status: [email.status, cancelled.status] },
      });
    }
    return cancelled;
  });
  if (!row) throw notNow(email, 'a SCHEDULED, QUEUED or DEFERRED email can be cancelled');
  return toEmailView(row);
}
