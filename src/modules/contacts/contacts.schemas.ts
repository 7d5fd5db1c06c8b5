import { z } from 'zod';
import { CONSENT_ACTIONS, CONSENT_SOURCES, CONTACT_DATA_MAX_BYTES } from '../../db/schema/index.ts';
import { emailAddressSchema, normalizeEmail } from '../../lib/email-address.ts';
import { isoDate } from '../../lib/http.ts';
import { findJsonProblem } from '../../lib/json-guard.ts';
import { localeSchema } from '../../lib/locale.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { ENGAGEMENT_LEVELS } from './contacts.engagement.ts';
import { SUBSCRIPTION_STATES } from './contacts.repo.ts';
import { snoozedUntilField } from './contacts.snooze.ts';

/** An email address as every endpoint takes it (the one validator of lib/email-address.ts). */
export const emailSchema = emailAddressSchema;

/** An address in a query filter: matched in its stored form (so `user@bücher.example` finds its contact). */
const emailFilter = z.string().trim().min(1).max(254).transform(normalizeEmail);

/** Bytes of a value's JSON text, as the size caps count them. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** Levels of objects and arrays a `data` object may nest (the object itself is level 1). */
export const DATA_MAX_DEPTH = 16;

/**
 * A JSON object of free-form metadata: at most 16 levels deep and 64 KB as JSON, no `\0` in any key or
 * string, no `__proto__` / `constructor` / `prototype` keys (each a 422 on its field). The depth is
 * checked first, so measuring the size can never overflow the stack.
 */
export const dataSchema = z
  .record(z.string(), z.unknown())
  .superRefine((value, check) => {
    const problem = findJsonProblem(value, DATA_MAX_DEPTH);
    if (problem) {
      check.addIssue({
        code: 'custom',
        message: problem.message,
        path: problem.path === '' ? [] : problem.path.split('.'),
        params: { reason: problem.code },
      });
    } else if (jsonBytes(value) > CONTACT_DATA_MAX_BYTES) {
      check.addIssue({ code: 'custom', message: `must be at most ${CONTACT_DATA_MAX_BYTES / 1024} KB as JSON` });
    }
  })
  .meta({
    description:
      `JSON object; at most ${DATA_MAX_DEPTH} levels deep and 64 KB as ` +
      `JSON; no NUL characters, no __proto__, constructor or prototype ` +
      `keys`,
  });

export const confirmationSchema = z
  .object({
    status: z.enum(['NONE', 'PENDING', 'CONFIRMED']).meta({
      description:
        'NONE: the contact never signed up with double opt-in. PENDING: the confirmation ' +
        'email was sent and not yet confirmed',
    }),
    sentAt: isoDate.nullable().meta({ description: 'When the last confirmation email was sent' }),
    confirmedAt: isoDate.nullable(),
  })
  .meta({ id: 'ContactConfirmation' });
export const engagementLevelSchema = z.enum(ENGAGEMENT_LEVELS).meta({
  description:
    'new: no marketing mail received yet; engaged: a person opened or clicked within the last half of ' +
    'dormantAfterDays; dormant: no human open or click for dormantAfterDays while marketing mail kept arriving; ' +
    'at_risk: the rest. Machine opens and clicks never count.',
});

export const engagementSchema = z
  .object({
    level: engagementLevelSchema,
    score: z
      .number()
      .int()
      .min(0)
      .max(100)
      .meta({ description: 'Recency of human opens (60 points) and clicks (40), halving every dormantAfterDays / 6' }),
    lastHumanOpenAt: isoDate.nullable(),
    lastHumanClickAt: isoDate.nullable(),
  })
  .meta({ id: 'ContactEngagement' });

export const engagementCountsSchema = z
  .object({
    new: z.number().int(),
    engaged: z.number().int(),
    at_risk: z.number().int(),
    dormant: z.number().int(),
  })
  .meta({ id: 'EngagementCounts' });

export const contactSchema = z
  .object({
    id: z.string(),
    email: z.string().meta({ description: 'The stored form: lower-case, an internationalised domain in punycode' }),
    emailUnicode: z.string().meta({
      description: 'The same address with its domain in Unicode, as people write it (equal to email for ASCII domains)',
    }),
    subscribed: z.boolean(),
    data: z.record(z.string(), z.unknown()),
    locale: z.string().nullable().meta({
      description: 'The language the contact reads (BCP 47, such as pt-BR); null when unknown',
    }),
    confirmation: confirmationSchema.meta({ description: 'Double opt-in: NONE when the contact was never asked' }),
    engagement: engagementSchema,
    snoozedUntil: isoDate.nullable().meta({
      description: 'Marketing mail is paused until then (SUPPRESSED, reason SNOOZED); null when not snoozed',
    }),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Contact' });

export const consentEntrySchema = z
  .object({
    at: isoDate,
    action: z.enum(CONSENT_ACTIONS),
    source: z.object({
      type: z.enum(CONSENT_SOURCES).meta({
        description:
          'The way the change came: api, dashboard, form, import, bulk, preference_centre, unsubscribe_link (the ' +
          "link's page), one_click (a mail client's List-Unsubscribe-Post), complaint, sunset, workflow",
      }),
      id: z.string().optional().meta({
        description: 'The form, import, bulk action, workflow, or email (links in mail, complaints) it came through',
      }),
      emailId: z.string().optional().meta({ description: 'The email whose link led to it; its campaign counts it' }),
    }),
    topicId: z.string().optional().meta({ description: 'The topic of topic_in / topic_out' }),
    ip: z.string().optional().meta({ description: "The client's address, when a person's request made the change" }),
    userAgent: z.string().optional(),
    text: z.string().optional().meta({ description: "The wording the person agreed to (a form's consent text)" }),
  })
  .meta({ id: 'ConsentEntry' });

/** The contact's language in a write: a tag sets it (in canonical case), null clears it, omitted keeps it. */
export const contactLocaleField = localeSchema.nullable().optional().meta({
  description: 'The language the contact reads (BCP 47, such as pt-BR); null clears it',
});

export const upsertContactBody = z.object({
  email: emailSchema,
  subscribed: z.boolean().optional(),
  data: dataSchema
    .nullable()
    .optional()
    .meta({ description: 'Merged key by key into the contact; a null value deletes the key' }),
  locale: contactLocaleField,
});

export const updateContactBody = z.object({
  email: emailSchema.optional(),
  subscribed: z.boolean().optional(),
  data: dataSchema
    .nullable()
    .optional()
    .meta({ description: 'Merged key by key into the contact; a null value deletes the key' }),
  locale: contactLocaleField,
  snoozedUntil: snoozedUntilField,
});

const subscriptionState = z.enum(SUBSCRIPTION_STATES);

export const listContactsQuery = paginationQuery.extend({
  subscribed: z.stringbool().optional(),
  subscription: subscriptionState.optional().meta({
    description:
      'Only contacts in this state: `subscribed`; `unsubscribed` (subscribed once, then left); `never_subscribed` ' +
      '(never subscribed, such as recipients of transactional mail)',
  }),
  search: z
    .string()
    .trim()
    .toLowerCase()
    .min(1)
    .max(254)
    .optional()
    .meta({
      description:
        'Case-insensitive substring of the email; an internationalised domain (or a whole ' +
        'label of one) may be typed in Unicode',
    }),
  email: emailFilter
    .optional()
    .meta({ description: 'Exact email (case-insensitive; an internationalised domain in either form)' }),
});

/** A contact with where it stands (an opt-out told apart from a contact who never subscribed), as listed and read. */
export const contactDetailSchema = contactSchema
  .extend({
    subscription: subscriptionState.meta({
      description:
        '`subscribed`; `unsubscribed`: subscribed once (by the consent ledger), then left; `never_subscribed`: ' +
        'never subscribed (a recipient of transactional mail, or added unsubscribed)',
    }),
  })
  .meta({ id: 'ContactDetail' });

export const upsertedContactSchema = contactDetailSchema.extend({
  _meta: z.object({ isNew: z.boolean(), isUpdate: z.boolean() }),
});

export const importRowErrorSchema = z.object({
  row: z.number().int(),
  email: z.string().optional(),
  reason: z.string(),
});

export const contactImportSchema = z
  .object({
    id: z.string(),
    status: z.enum(['queued', 'processing', 'completed', 'failed']),
    format: z.enum(['csv', 'json']),
    total: z.number().int(),
    processed: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
    rejected: z.number().int(),
    errors: z
      .array(importRowErrorSchema)
      .meta({ description: 'The first rejected rows (row 1 = first data row) with their reasons' }),
    failure: z.string().nullable(),
    createdAt: isoDate,
    updatedAt: isoDate,
    finishedAt: isoDate.nullable(),
  })
  .meta({ id: 'ContactImport' });

/** A CSV upload (text/csv, header row) or a JSON array of `{email, subscribed?, data?, locale?}`. */
export const importBody = z.union([
  z.string().meta({
    description: 'text/csv with a header row: email, subscribed, locale, and any other columns (into data)',
  }),
  z.array(z.unknown()).meta({ description: 'JSON array of {email, subscribed?, data?, locale?}' }),
]);

/** What the API reference says about each contact route, by operationId. */
export const contactRouteDocs = {
  getContactConsent:
    "The contact's consent ledger, oldest first: every subscription change, topic choice, confirmation and pause, " +
    'with the way it came (source), the client address and user agent when a person made it, and the wording agreed ' +
    'to on a form. Entries are never changed; they go with the contact when it is deleted.',
  upsertContact: 'Creates the contact (201) or updates the one with this email (200): only the fields given change.',
  updateContact:
    'Changes email, subscribed, locale (null clears it), data (merged key by key) and snoozedUntil (pauses ' +
    'marketing mail until then, at most a year ahead; null resumes it).\n\n' +
    'Another contact with the email is a 409.',
  deleteContact:
    'Deletes the contact and its events, and erases its address from its emails: they stay for counts ' +
    '(status, timestamps, campaign figures) with `to` replaced by `erased@erased.invalid`, and the ones ' +
    'not yet sent are cancelled. A suppression of the address stays.',
  countContactEngagement:
    "The project's contacts by engagement level (new, engaged, at_risk, dormant), by the same rules as each " +
    "contact's `engagement.level` and the `engagement` filter condition: people's opens and clicks only.",
  importContacts:
    'Queues a bulk import of up to 100,000 rows: text/csv with a header row (up to 32 MB, checked as it ' +
    'streams in), or a JSON array (up to 8 MB). The job parses it; poll GET /contacts/import/{id}.',
  createContactBulkAction:
    'Queues subscribe, unsubscribe, delete, addToSegment, removeFromSegment or setData for up to 10,000 ' +
    'contact ids or every contact matching a filter. The job works in batches, records the same events ' +
    'and webhooks as one-by-one changes, and resumes after a restart; poll GET /contacts/bulk/{id}.',
} as const;
