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

export const templateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    subject: z.string(),
    body: z.string(),
    type: templateType,
    from: z.string().nullable(),
    fromName: z.string().nullable(),
    replyTo: z.string().nullable(),
    sampleData: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: 'Sample variables for previews and test sends, kept with the template' }),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Template' });

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

export const createTemplateBody = z.object({
  name: nameSchema(),
  subject: singleLine(998).pipe(z.string().min(1)),
  body: z.string().min(1).max(1_000_000),
  type: templateType,
  from: emailAddressSchema.nullable().optional(),
  fromName: singleLine(200).nullable().optional(),
  replyTo: emailAddressSchema.nullable().optional(),
  sampleData: sampleDataSchema.nullable().optional(),
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
    'A Liquid template; a body or subject that does not parse is a 422 with line and column, a sender ' +
    'off the verified domains a 403.',
  updateTemplate:
    "Changes the fields the body names, checked as on create. 409 when the template is the project's " +
    'double opt-in confirmation email and the change would remove its sender (`from`) or its ' +
    '{{confirmUrl}} link.',
  deleteTemplate:
    "Deletes a template; 409 while a workflow's SEND_EMAIL step sends it, or while it is the double " +
    'opt-in confirmation email.',
} as const;
