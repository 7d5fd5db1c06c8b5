import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { localeSchema } from '../../lib/locale.ts';
import { nameSchema } from '../../lib/text.ts';

/** Field names a form's own fields may not take: the honeypot and the proof-of-work solution. */
export const HONEYPOT_FIELD = 'hp_website';
export const POW_FIELD = 'altcha';
const RESERVED_KEYS = new Set([HONEYPOT_FIELD, POW_FIELD]);

const CONTROL = /\p{Cc}/u;
const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !/\0/.test(value), { error: 'must not contain NUL' });

export const formFieldSchema = z
  .object({
    key: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'a letter, then letters, digits or _ (at most 64)')
      .refine((key) => !RESERVED_KEYS.has(key), { error: `${HONEYPOT_FIELD} and ${POW_FIELD} are reserved` })
      .meta({ description: "The field's name in the posted form, and the key of the new contact's data" }),
    label: nameSchema(200).meta({ description: 'Shown beside the field (as text: HTML is escaped)' }),
    type: z.enum(['email', 'text', 'checkbox', 'select']),
    required: z.boolean().optional().meta({ description: 'Default false; the email field is always required' }),
    options: z
      .array(text(200).refine((v) => !CONTROL.test(v), { error: 'must not contain control characters' }))
      .min(1)
      .max(100)
      .optional()
      .meta({ description: 'The choices of a select field (required for one, refused for other types)' }),
  })
  .meta({ id: 'FormField' });

const redirectUrlSchema = z
  .string()
  .max(2048)
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
      } catch {
        return false;
      }
    },
    { error: 'must be an absolute http or https URL' },
  );

const settingsShape = {
  topicIds: z
    .array(z.string().max(64))
    .max(50)
    .meta({ description: 'Topics a submission chooses in to (for new and existing contacts)' }),
  segmentId: z.string().max(64).nullable().meta({ description: 'A list (STATIC segment) a submission joins' }),
  doubleOptIn: z.boolean().meta({
    description:
      "Send the project's confirmation email (settings.doubleOptIn) and subscribe only once the link is confirmed",
  }),
  captcha: z.enum(['none', 'pow']).meta({ description: 'pow: a proof-of-work challenge the browser solves' }),
  successMessage: text(2000).nullable().meta({ description: 'Shown after a submission (text)' }),
  redirectUrl: redirectUrlSchema.nullable().meta({ description: 'Where a browser goes after a submission (303)' }),
  locale: localeSchema.nullable().meta({
    description: "The page's language, and a new contact's locale; without it, the browser's language",
  }),
  consentText: text(2000).nullable().meta({ description: 'Shown by the submit button and recorded as agreed to' }),
};

const fields = z.array(formFieldSchema).min(1).max(30);

const settings = z.object(settingsShape).partial();

export const createFormBody = z.object({ name: nameSchema(), fields, ...settings.shape });

export const updateFormBody = z.object({ name: nameSchema().optional(), fields: fields.optional(), ...settings.shape });

export type FormFieldInput = z.output<typeof formFieldSchema>;
export type CreateFormInput = z.output<typeof createFormBody>;
export type UpdateFormInput = z.output<typeof updateFormBody>;

export const formSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    fields: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        type: z.enum(['email', 'text', 'checkbox', 'select']),
        required: z.boolean(),
        options: z.array(z.string()).optional(),
      }),
    ),
    topicIds: z.array(z.string()),
    segmentId: z.string().nullable(),
    doubleOptIn: z.boolean(),
    captcha: z.enum(['none', 'pow']),
    successMessage: z.string().nullable(),
    redirectUrl: z.string().nullable(),
    locale: z.string().nullable(),
    consentText: z.string().nullable(),
    url: z.string().meta({ description: 'The hosted page' }),
    submissions: z.number().int().meta({ description: 'Accepted submissions (spam not counted)' }),
    confirmed: z
      .number()
      .int()
      .meta({ description: 'Submissions asked to confirm by email whose contact confirmed afterwards' }),
    spam: z.number().int().meta({ description: 'Submissions refused by the honeypot (nothing else kept of them)' }),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Form' });

export const embedSchema = z.object({
  html: z.string().meta({ description: 'A plain HTML form posting to the hosted page: works without JavaScript' }),
  script: z
    .string()
    .nullable()
    .meta({ description: 'The proof-of-work widget (captcha "pow" only): place it once on the page' }),
});

export const submissionAccepted = z.object({
  message: z.string().meta({ description: 'The success message to show' }),
  redirectUrl: z.string().nullable(),
});

/** What the API reference says about each form route, by operationId. */
export const formRouteDocs = {
  createForm:
    'Exactly one email field (422 otherwise). topicIds must be topics of the project and segmentId a list ' +
    "(STATIC segment) of it (422). doubleOptIn needs the project's doubleOptIn setting (409). redirectUrl: http or " +
    'https only.',
  getForm: 'The form with its counts: accepted submissions, confirmed double opt-ins, and honeypot catches (spam).',
  getFormEmbed:
    'A plain HTML form posting to the hosted page (works without JavaScript), and for captcha "pow" the script of ' +
    'the proof-of-work widget, served by Herald.',
  formPage: "The hosted form, in the form's locale or else the browser's language. Embeddable in a frame.",
  submitForm:
    'A submission, urlencoded (a browser: 303 to redirectUrl or the success page; a field error shows the form ' +
    'again with its message, 422) or JSON (200, or the 422 envelope). At most 10 per minute per client address. ' +
    'A new address becomes a contact; an existing contact only gains the topics and list (its data and its ' +
    'subscription stay as they are, unless it confirms a double opt-in).',
  formChallenge: 'A fresh proof-of-work challenge for the widget (captcha "pow").',
} as const;
