import {
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * The request log: every API request made in a project (by its keys or its signed-in members), with bodies redacted
 * and cut at 10 KB; kept RETENTION_LOGS_DAYS.
 */
export const requestLogs = pgTable(
  'request_logs',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** When the request arrived. */
    createdAt: at('created_at').notNull(),
    method: text('method').notNull(),
    /** The URL path, without its query string. */
    path: text('path').notNull(),
    status: smallint('status').notNull(),
    durationMs: doublePrecision('duration_ms').notNull(),
    actorType: text('actor_type', { enum: ['user', 'key', 'admin', 'system'] }).notNull(),
    /** The key's or user's id. */
    actorId: uuid('actor_id'),
    actorLabel: text('actor_label').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    requestId: text('request_id'),
    /** JSON text, redacted; when cut, a prefix of it. */
    requestBody: text('request_body'),
    requestBodyCut: boolean('request_body_cut').notNull().default(false),
    requestBytes: integer('request_bytes'),
    responseBody: text('response_body'),
    responseBodyCut: boolean('response_body_cut').notNull().default(false),
    responseBytes: integer('response_bytes'),
  },
  (t) => [
    index('request_logs_project_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
    index('request_logs_actor_idx').on(t.projectId, t.actorId, t.createdAt.desc()),
    index('request_logs_status_idx').on(t.projectId, t.status, t.createdAt.desc()),
    index('request_logs_path_idx').on(t.projectId, t.path.op('text_pattern_ops')),
    index('request_logs_created_idx').on(t.createdAt),
  ],
);
