import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { contacts } from './contacts.ts';
import { projects, timestamps } from './projects.ts';
import { segments } from './segments.ts';

export type FormFieldType = 'email' | 'text' | 'checkbox' | 'select';
export type FormCaptcha = 'none' | 'pow';

/** One field of a signup form, in the order the page shows it. */
export interface FormField {
  key: string;
  label: string;
  type: FormFieldType;
  required: boolean;
  options?: string[] | undefined;
}

/**
 * A signup form: its fields (exactly one email), what a submission subscribes the person to (topics, a static list),
 * and how it answers (a message or a redirect). `spam` counts submissions caught by the honeypot, which store nothing
 * else.
 */
export const forms = pgTable(
  'forms',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    fields: jsonb('fields').$type<FormField[]>().notNull(),
    topicIds: jsonb('topic_ids').$type<string[]>().notNull().default([]),
    segmentId: uuid('segment_id').references(() => segments.id, { onDelete: 'set null' }),
    doubleOptIn: boolean('double_opt_in').notNull().default(false),
    captcha: text('captcha').$type<FormCaptcha>().notNull().default('none'),
    successMessage: text('success_message'),
    redirectUrl: text('redirect_url'),
    locale: text('locale'),
    consentText: text('consent_text'),
    spam: integer('spam').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('forms_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc())],
);

/**
 * One accepted submission of a form (its counts): the contact it reached, kept as null once that contact is deleted,
 * and whether it asked the person to confirm by email.
 */
export const formSubmissions = pgTable(
  'form_submissions',
  {
    id: uuid('id').primaryKey(),
    formId: uuid('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    doubleOptIn: boolean('double_opt_in').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('form_submissions_form_idx').on(t.formId, t.createdAt),
    index('form_submissions_contact_idx').on(t.contactId),
  ],
);

/**
 * Proof-of-work challenges already used by a submission, so a solution is accepted once; kept until the challenge
 * expires (then it is refused as expired anyway).
 */
export const formChallengesUsed = pgTable(
  'form_challenges_used',
  {
    signature: text('signature').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('form_challenges_used_expires_idx').on(t.expiresAt)],
);
