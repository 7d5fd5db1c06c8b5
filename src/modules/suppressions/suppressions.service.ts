// The suppression list: addresses a project never sends to (hard bounces, complaints, manual blocks).
import type { Executor } from '../../db/client.ts';
import type { SuppressionReason } from '../../db/schema/emails.ts';
import * as repo from './suppressions.repo.ts';

/** Which of these addresses the project must not send to, with the reason. */
export async function findSuppressedAddresses(opts: { db: Executor; projectId: string; emails: string[] }): Promise<Map<string, SuppressionReason>> {
  return repo.findSuppressed(opts.db, opts.projectId, opts.emails);
}

/** Adds an address to the list (an existing entry is kept as it was); the new entry, or null when there was one. */
export async function suppressAddress(opts: { db: Executor; projectId: string; email: string; reason: SuppressionReason; detail?: string | null; emailId?: string | null }) {
  const { db, ...row } = opts;
  return repo.addSuppression(db, row);
}
