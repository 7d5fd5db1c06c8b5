import { z } from 'zod';
import { emailAddressSchema } from '../../lib/email-address.ts';
import { isoDate } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { nameSchema } from '../../lib/text.ts';
import { dataSchema } from '../contacts/index.ts';

export const templateType = z.enum(['TRANSACTIONAL', 'MARKETING']);

/** A display name or subject line: one line of text, no control characters. */
export const singleLine = (max: number) =>
  z
    .string()
    .max(max)
    // eslint-disable-next-line no-control-regex
    .refine((v) => !/[\r\n\u0000]/.test(v), 'must not contain CR, LF or NUL');

export const contentFormat = z
  .enum(['html', 'mjml', 'blocks'])
  .meta({ description: 'html: the source is `body`; mjml and blocks: `content`, compiled on save' });

/** Who saved or published a version: a person, a key, the admin token or Herald. */
export const actorSchema = z
  .object({ type: z.enum(['user', 'key', 'admin', 'system']), id: z.string().nullable(), label: z.string() })
  .meta({ id: 'Actor' });

const contentValue = z
  .unknown()
  .meta({ description: 'mjml: the MJML source (a string); blocks: a block document; absent for html' });

/** One language's subject and content, as given (what it leaves out comes from the default). */
export const translationSchema = z
  .object({
    subject: singleLine(998).pipe(z.string().min(1)).optional(),
    body: z.string().min(1).max(1_000_000).optional(),
    content: contentValue.optional(),
  })
  .meta({ id: 'Translation' });

/** Translations by language tag; a tag that is not a language is a 422. */
export const translationsSchema = z
  .record(z.string().max(35), translationSchema)
  .refine((value) => Object.keys(value).length <= 50, { error: 'at most 50 translations' })
  .meta({ description: 'By language tag (pt-BR, de): each message rendered in the recipient language' });

/** A layout choice: an id, null for none; absent in an answer when the project default applies. */
const layoutChoice = z
  .string()
  .nullable()
  .meta({ description: "The layout: an id, or null for none; absent: the project's default layout" });

/** What a version holds. */
const versionContent = {
  subject: z.string(),
  format: contentFormat,
  body: z.string(),
  content: contentValue.nullable(),
  from: z.string().nullable(),
  fromName: z.string().nullable(),
  replyTo: z.string().nullable(),
  layoutId: layoutChoice.optional(),
  translations: z.record(z.string(), translationSchema).nullable(),
};

export const templateDraftSchema = z
  .object({
    version: z.number().int(),
    ...versionContent,
    savedAt: isoDate,
    savedBy: actorSchema.nullable(),
  })
  .meta({ id: 'TemplateDraft' });

export const templateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: templateType,
    ...versionContent,
    sampleData: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: 'Sample variables for previews and test sends, kept with the template' }),
    version: z
      .number()
      .int()
      .meta({ description: 'The published version that sends use (0: never published, not sendable)' }),
    publishedAt: isoDate.nullable(),
    publishedBy: actorSchema.nullable(),
    hasUnpublishedChanges: z.boolean(),
    draft: templateDraftSchema.nullable().meta({ description: 'The saved, unpublished draft' }),
    warnings: z.array(z.string()).optional().meta({ description: 'What compiling the content noticed' }),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Template' });

export const templateVersionSummary = z
  .object({
    version: z.number().int(),
    subject: z.string(),
    format: contentFormat,
    draft: z.boolean().meta({ description: 'The unpublished draft' }),
    savedAt: isoDate,
    savedBy: actorSchema.nullable(),
    publishedAt: isoDate.nullable(),
    publishedBy: actorSchema.nullable(),
  })
  .meta({ id: 'TemplateVersionSummary' });

export const templateVersionSchema = templateVersionSummary.extend(versionContent).meta({ id: 'TemplateVersion' });

export const versionParams = z.object({
  id: z.string(),
  version: z.coerce.number().int().min(1).max(2_147_483_647),
});

/** The most bytes sample data may take as JSON. */
export const SAMPLE_DATA_MAX_BYTES = 16_384;

export const sampleDataSchema = dataSchema
  .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= SAMPLE_DATA_MAX_BYTES, {
    error: `must be at most ${SAMPLE_DATA_MAX_BYTES / 1024} KB as JSON`,
  })
  .meta({
    description:
      `A JSON object of sample variables (at most ${SAMPLE_DATA_MAX_BYTES / 1024} ` +
      `KB) for previews and test sends; null clears it`,
  });

/** The content fields of a template or campaign request (each format's own source). */
export const contentFields = {
  format: contentFormat.optional(),
  body: z.string().min(1).max(1_000_000).optional(),
  content: contentValue.optional(),
  layoutId: z
    .union([z.uuid(), z.literal('default')])
    .nullable()
    .optional()
    .meta({ description: 'A layout id; null: none; "default" or absent: the project default' }),
  translations: translationsSchema.nullable().optional(),
};

export const createTemplateBody = z.object({
  name: nameSchema(),
  subject: singleLine(998).pipe(z.string().min(1)),
  type: templateType,
  ...contentFields,
  from: emailAddressSchema.nullable().optional(),
  fromName: singleLine(200).nullable().optional(),
  replyTo: emailAddressSchema.nullable().optional(),
  sampleData: sampleDataSchema.nullable().optional(),
  publish: z
    .boolean()
    .optional()
    .meta({ description: 'false: save as a draft (unpublished, not sendable); true by default' }),
});

export const updateTemplateBody = createTemplateBody.partial();

export const listTemplatesQuery = paginationQuery.extend({
  type: templateType.optional(),
  search: z.string().max(200).optional(),
});

/** What the API reference says about each template route, by operationId. */
export const templateRouteDocs = {
  previewTemplate:
    'Renders a subject and an HTML body (Liquid) with sample data, or for one contact (`contactId`: its ' +
    'address and data), exactly as a send would, and returns subject, HTML and text. Nothing is saved or ' +
    'sent. 404 when the contact is not found.',
  createTemplate:
    'A Liquid template in HTML, MJML or a block document, compiled on save.\n\n' +
    'MJML that does not compile is a 422 naming the line; a bad block names its path.\n\n' +
    'A body or subject that does not parse is a 422 with line and column.\n\n' +
    'A sender off the verified domains is a 403. Version 1, published unless `publish: false`.',
  updateTemplate:
    'Name, type and sample data change in place.\n\n' +
    'Content fields make a new version over the draft (else the published version).\n\n' +
    'It is published at once unless `publish: false` saves the draft.\n\n' +
    "409 when the template is the project's double opt-in confirmation email\n" +
    'and the change would remove its sender or its {{confirmUrl}} link.',
  publishTemplate:
    'Publishes the draft, compiled again in its layout as it is now.\n\n' +
    '409 when there is no draft: nothing to publish, or another person published it first.',
  listTemplateVersions: 'Every saved version, newest first: the published ones and the draft.',
  restoreTemplateVersion: "Makes that version's content the draft (publish it to send it); 404 for an unknown version.",
  deleteTemplate:
    "Deletes a template; 409 while a workflow's SEND_EMAIL step sends it, or while it is the double " +
    'opt-in confirmation email.',
} as const;

export type TemplateInput = z.infer<typeof updateTemplateBody>;
