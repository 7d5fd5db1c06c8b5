import type { Executor } from '../../db/client.ts';
import { feedbackReports, type FeedbackKind } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';

/** Records a report once; false when the same report (fingerprint) was recorded before. */
export async function insertReport(
  db: Executor,
  row: {
    projectId: string;
    emailId: string;
    source: string;
    kind: FeedbackKind;
    fingerprint: string;
    detail: Record<string, unknown>;
  },
): Promise<boolean> {
  const rows = await db
    .insert(feedbackReports)
    .values({ id: newId(), ...row })
    .onConflictDoNothing()
    .returning({ id: feedbackReports.id });
  return rows.length === 1;
}
