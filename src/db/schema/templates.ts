import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { Actor } from '../../lib/request-origin.ts';
import { layouts } from './layouts.ts';
import { projects } from './projects.ts';

export type TemplateType = 'TRANSACTIONAL' | 'MARKETING';
export type ContentFormat = 'html' | 'mjml' | 'blocks';

/** One language's version of a message: what it leaves out comes from the default. */
export interface Translation {
  subject?: string | undefined;
  /** format html: the HTML source. */
  body?: string | undefined;
  /** format mjml or blocks: the MJML source or the block document. */
  content?: unknown;
  /** What a send renders (compiled, in its layout); absent when the translation gives no content. */
  html?: string | undefined;
}
export type Translations = Record<string, Translation>;

/** Everything a version of a template holds, as saved. */
export interface TemplateSnapshot {
  subject: string;
  format: ContentFormat;
  body: string;
  content: unknown;
  html: string;
  fromEmail: string | null;
  fromName: string | null;
  replyTo: string | null;
  layoutId: string | null;
  noLayout: boolean;
  translations: Translations | null;
}

export const templates = pgTable(
  'templates',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    subject: text('subject').notNull(),
    /** format html: the HTML source; mjml and blocks: the compiled HTML (read-only). */
    body: text('body').notNull(),
    format: text('format').$type<ContentFormat>().notNull().default('html'),
    /** format mjml: the MJML source; blocks: the block document; null for html. */
    content: jsonb('content').$type<unknown>(),
    /** What sends render with Liquid: the compiled body in its layout. */
    html: text('html').notNull(),
    /** The layout it names; null with noLayout false: the project's default layout. */
    layoutId: uuid('layout_id').references(() => layouts.id),
    noLayout: boolean('no_layout').notNull().default(false),
    translations: jsonb('translations').$type<Translations>(),
    /** The published version's number (sends use the published version). */
    version: integer('version').notNull().default(1),
    publishedAt: timestamp('published_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    publishedBy: jsonb('published_by').$type<Actor>(),
    /** The version number of the unpublished draft; null when there is none. */
    draftVersion: integer('draft_version'),
    type: text('type').$type<TemplateType>().notNull(),
    fromEmail: text('from_email'),
    fromName: text('from_name'),
    replyTo: text('reply_to'),
    /** The editor's sample variables for previews and test sends (a JSON object), kept with the template. */
    sampleData: jsonb('sample_data').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('templates_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc())],
);

/**
 * Every save of a template's content: published versions, and the one draft (publishedAt null) that the next draft
 * save replaces.
 */
export const templateVersions = pgTable(
  'template_versions',
  {
    id: uuid('id').primaryKey(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    snapshot: jsonb('snapshot').$type<TemplateSnapshot>().notNull(),
    savedAt: timestamp('saved_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    savedBy: jsonb('saved_by').$type<Actor>(),
    publishedAt: timestamp('published_at', { withTimezone: true, precision: 3 }),
    publishedBy: jsonb('published_by').$type<Actor>(),
  },
  (t) => [uniqueIndex('template_versions_template_version_idx').on(t.templateId, t.version)],
);
