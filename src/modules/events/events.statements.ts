// Events recorded inside another module's statement (a contact's upsert and its flip, a batch of sent emails),
// where one statement does both: the INSERT is written here, so events stay this module's to write.
import { sql, type SQL } from 'drizzle-orm';

/**
 * A statement that records an event for every row of `rows`, a SELECT of (id, project_id, contact_id, name,
 * data) in that order; usable as a data-modifying CTE (`WITH logged AS (${eventsFrom(...)})`). Workflows start and
 * wake from these rows by the trigger events_start_workflows, in the same statement (docs/database-triggers.md).
 */
export function eventsFrom(rows: SQL): SQL {
  return sql`INSERT INTO events (id, project_id, contact_id, name, data) ${rows}`;
}
