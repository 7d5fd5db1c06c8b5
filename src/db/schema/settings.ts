import { boolean, doublePrecision, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { templates } from './templates.ts';

export type SunsetAction = 'unsubscribe' | 'none';
/** The project's frequency cap as stored. */
export interface FrequencyCap {
  max: number;
  days: number;
}

export type TrackingMode = 'ALL' | 'MARKETING_ONLY' | 'NONE';

/** A project's settings; a project without a row has the defaults (see the settings module). */
export const projectSettings = pgTable('project_settings', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  timezone: text('timezone').notNull().default('UTC'),
  tracking: text('tracking').$type<TrackingMode>().notNull().default('MARKETING_ONLY'),
  /** The confirmation template of double opt-in; deleting the template turns double opt-in off. */
  doubleOptInTemplateId: uuid('double_opt_in_template_id').references(() => templates.id, { onDelete: 'set null' }),
  maxBounceRate: doublePrecision('max_bounce_rate').notNull().default(0.08),
  maxComplaintRate: doublePrecision('max_complaint_rate').notNull().default(0.003),
  /** Members without two-factor may only set it up until they have. */
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  /** Pre-send check codes treated as errors (a send with one is refused unless forced), whatever their severity. */
  checkErrors: jsonb('check_errors').$type<string[]>().notNull().default([]),
  /** A contact with no human open or click for this many days while marketing mail kept arriving is dormant. */
  dormantAfterDays: integer('dormant_after_days').notNull().default(180),
  /** What the daily sweep does to dormant contacts: `unsubscribe` them, or `none`. */
  sunsetAction: text('sunset_action').$type<SunsetAction>().notNull().default('none'),
  /** At most `max` marketing emails per contact in any `days` days; null: no cap. */
  frequencyCap: jsonb('frequency_cap').$type<FrequencyCap>(),
  /** The sender of a send that names none (no `from`, no template sender); null: such a send is refused. */
  defaultFromEmail: text('default_from_email'),
  /** The display name that goes with `defaultFromEmail`; null: the address alone. */
  defaultFromName: text('default_from_name'),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
