// Snooze: a contact pauses marketing mail until a time instead of unsubscribing. Every change of it — the API, the
// dashboard, the preference centre — goes through setContactSnooze, so each records the same event, webhook, audit and
// consent ledger entry.
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { recordAudit, REDACTED } from '../audit/index.ts';
import { recordEvents } from '../events/index.ts';
import { recordConsent, type ConsentSource } from './contacts.consent.ts';
import * as repo from './contacts.repo.ts';
import { emitContactEvents } from './contacts.webhooks.ts';

/** The longest snooze: a year ahead (366 days, so a date a calendar year away always fits). */
export const MAX_SNOOZE_DAYS = 366;

/** The pauses the preference centre offers, by name: two weeks, one month, three months. */
export const SNOOZE_CHOICES = { '2w': 14, '1m': 30, '3m': 91 } as const;
export type SnoozeChoice = keyof typeof SNOOZE_CHOICES;

/** `snoozedUntil` in a write: an ISO date-time in the future, at most a year ahead; null resumes at once. */
export const snoozedUntilField = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time such as 2030-01-31T09:00:00Z' })
  .refine((value) => Date.parse(value) > Date.now(), 'must be in the future (null resumes marketing mail)')
  .refine(
    (value) => Date.parse(value) <= Date.now() + MAX_SNOOZE_DAYS * 86_400_000,
    `must be at most ${MAX_SNOOZE_DAYS} days ahead`,
  )
  .nullable()
  .optional()
  .meta({
    description:
      `Pause marketing mail until then (ISO 8601, in the future, at most ${MAX_SNOOZE_DAYS} days ahead): it is ` +
      'SUPPRESSED with reason SNOOZED meanwhile, transactional mail still goes. null resumes at once.',
    example: '2030-01-31T09:00:00Z',
  });

/** The snooze as the API shows it: the time while it lasts, null once it has passed (or was never set). */
export function activeSnooze(until: Date | null, now = new Date()): Date | null {
  return until && until > now ? until : null;
}

/**
 * Sets (a time) or clears (null) the contact's snooze, in the caller's transaction when `db` is one. A change records
 * the event `contact.snoozed` (data `{until}`) or `contact.unsnoozed` and its consent ledger entry, queues
 * `contact.updated` for the webhooks and, for a change asked for through the API or the dashboard, an audit entry.
 * Setting what is already there records nothing. 404 for an unknown contact.
 */
export async function setContactSnooze(opts: {
  db: Executor;
  projectId: string;
  id: string;
  until: Date | null;
  /**
   * Who asked for the change (api: a key; dashboard: a signed-in person; preference_centre: the contact on the page of
   * {{manageUrl}}). The consent ledger records it as the change's source.
   */
  consent: ConsentSource;
  audited?: boolean;
}): Promise<repo.ContactRow> {
  const { projectId, id, consent } = opts;
  const row = !isId(id)
    ? null
    : await opts.db.transaction(async (tx) => {
        const result = await repo.setSnoozeRow(tx, projectId, id, opts.until);
        if (!result) return null;
        const wasActive = activeSnooze(result.before) !== null;
        const snoozing = opts.until !== null;
        // Clearing a snooze that had already ended changes nothing anyone can see: no event then.
        if (result.changed && (snoozing || wasActive)) {
          const event = snoozing
            ? {
                contactId: id,
                name: 'contact.snoozed',
                data: { until: opts.until!.toISOString(), source: consent.type },
              }
            : { contactId: id, name: 'contact.unsnoozed', data: { source: consent.type } };
          await recordEvents({ db: tx, projectId, events: [event] });
          await recordConsent(tx, projectId, consent, [{ contactId: id, action: snoozing ? 'snoozed' : 'unsnoozed' }]);
          await emitContactEvents(tx, projectId, [{ contact: result.contact, changed: true }]);
          if (opts.audited)
            await recordAudit(tx, {
              action: 'contact.updated',
              resourceType: 'contact',
              resourceId: id,
              projectId,
              changes: { snoozedUntil: [REDACTED, REDACTED] },
            });
        }
        return result.contact;
      });
  if (!row) throw notFound('Contact');
  return row;
}
