import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { contacts } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { compileFilter, FilterCompileError } from './filter.compile.ts';
import type { Filter } from './filter.types.ts';
import { loadSegmentClosure } from './segments.repo.ts';

/**
 * The SQL predicate of a validated filter, with the segments it names (`refs`) and theirs loaded in one
 * query. Segments, FILTERED campaigns and workflow conditions all run filters through here.
 */
export async function filterPredicate(opts: {
  db: Executor;
  projectId: string;
  filter: Filter;
  refs: string[];
  field?: string;
}): Promise<SQL> {
  const closure = await loadSegmentClosure(opts.db, opts.projectId, opts.refs);
  try {
    return compileFilter(opts.filter, { projectId: opts.projectId, segments: closure });
  } catch (error) {
    if (!(error instanceof FilterCompileError)) throw error;
    const field = opts.field ?? 'filter';
    throw new AppError('VALIDATION_ERROR', `${field}: ${error.message}`, {
      errors: [{ field, message: error.message, code: 'unknown_segment' }],
    });
  }
}

/** Contacts a campaign may mail, among those matching `predicate`: subscribed and not on the suppression list. */
export function recipientPredicate(predicate: SQL): SQL {
  return and(
    eq(contacts.subscribed, true),
    sql`NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.project_id = ${contacts.projectId} AND s.email =
      ${contacts.email})`,
    predicate,
  )!;
}
