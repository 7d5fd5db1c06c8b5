// The suppression list: addresses a project never sends to (hard bounces, complaints, manual blocks).
import type { Executor } from '../../db/client.ts';
import type { SuppressionReason } from '../../db/schema/suppressions.ts';
import { recordAudit } from '../audit/index.ts';
import * as repo from './suppressions.repo.ts';

/** Which of these addresses the project must not send to, with the reason. */
export async function findSuppressedAddresses(opts: {
  db: Executor;
  projectId: string;
  emails: string[];
}): Promise<Map<string, SuppressionReason>> {
  return repo.findSuppressed(opts.db, opts.projectId, opts.emails);
}

/** Adds an address to the list (an existing entry is kept as it was); the new entry, or null when there was one. */
export async function suppressAddress(opts: {
  db: Executor;
  projectId: string;
  email: string;
  reason: SuppressionReason;
  detail?: string | null;
  emailId?: string | null;
}) {
  const { db, ...row } = opts;
  return repo.addSuppression(db, row);
}

// The audit log names a suppression by its id and reason: its address is personal data, its detail may hold some.

/** POST /suppressions: adds an address (`suppression.added`); null when it is suppressed already. */
export async function addSuppression(opts: {
  db: Executor;
  projectId: string;
  email: string;
  reason: SuppressionReason;
  detail: string | null;
}) {
  const { db, ...row } = opts;
  return db.transaction(async (tx) => {
    const created = await repo.addSuppression(tx, row);
    if (created) {
      await recordAudit(tx, {
        action: 'suppression.added',
        resourceType: 'suppression',
        resourceId: created.id,
        projectId: opts.projectId,
        changes: { reason: [null, created.reason] },
      });
    }
    return created;
  });
}

/** DELETE /suppressions/{email}: sending to it resumes (`suppression.removed`); false when it was not listed. */
export async function removeSuppression(opts: { db: Executor; projectId: string; email: string }): Promise<boolean> {
  return opts.db.transaction(async (tx) => {
    const removed = await repo.deleteSuppression(tx, opts.projectId, opts.email);
    if (removed) {
      await recordAudit(tx, {
        action: 'suppression.removed',
        resourceType: 'suppression',
        resourceId: removed.id,
        projectId: opts.projectId,
        changes: { reason: [removed.reason, null] },
      });
    }
    return removed !== null;
  });
}
