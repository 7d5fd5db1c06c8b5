import type { Executor } from '../../db/client.ts';
import { hourOfWeek, type EngagementLevel } from './contacts.engagement.ts';
import * as repo from './contacts.engagement.repo.ts';

export { marketingReceivedStatement } from './contacts.engagement.repo.ts';

/**
 * Notes a person's open or click of mail to the contact (never call it for a machine's): its last open or click,
 * and, for the email's first human open or first human click (`counted`), the hour of the week for send-time
 * optimisation. Call it in the transaction that records the open or click.
 */
export async function recordHumanActivity(opts: {
  db: Executor;
  contactId: string;
  kind: 'open' | 'click';
  at: Date;
  counted: boolean;
}): Promise<void> {
  await repo.recordHumanActivityRow(opts.db, { ...opts, hour: hourOfWeek(opts.at) });
}

/** The project's contacts by engagement level, by the rules of engagementLevel. */
export async function countEngagementLevels(opts: {
  db: Executor;
  projectId: string;
}): Promise<Record<EngagementLevel, number>> {
  return repo.countEngagementLevels(opts.db, opts.projectId);
}

/** The project's dormantAfterDays, as the contact views and the engagement condition read it. */
export async function findDormantAfterDays(opts: { db: Executor; projectId: string }): Promise<number> {
  return repo.findDormantAfterDays(opts.db, opts.projectId);
}
