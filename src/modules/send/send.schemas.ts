import { z } from 'zod';
import { dataSchema, emailSchema as address } from '../contacts/index.ts';
import { scheduledAtSchema } from '../emails/index.ts';
import { singleLine } from '../templates/index.ts';

export const MAX_RECIPIENTS = 50;
export const MAX_ATTACHMENTS = 10;
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const MAX_REPLY_TO = 5;
export const MAX_TAGS = 20;
export const MAX_BATCH = 100;

const named = z.object({ name: singleLine(200).optional(), email: address });
const recipient = z.union([address, named]);
const recipients = z.union([recipient, z.array(recipient).min(1).max(MAX_RECIPIENTS)]);
const tagPart = z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, 'must be 1 to 256 letters, digits, _ or -');

export const tagSchema = z.object({ name: tagPart, value: tagPart });

export const attachmentSchema = z.object({
  filename: singleLine(255).pipe(z.string().min(1)),
  content: z.string().min(1).describe('Base64-encoded file content'),
  contentType: z
    .string()
    .max(255)
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type such as application/pdf')
    .optional(),
  contentId: z
    .string()
    .regex(/^[\x21-\x3b\x3d\x3f-\x7e]{1,200}$/, 'must be printable ASCII without spaces or < >')
    .optional()
    .meta({ description: 'Sends the file inline with this Content-ID, for `<img src="cid:…">` in the body' }),
});

const addressCount = (value: z.infer<typeof recipients> | undefined) =>
  value === undefined ? 0 : Array.isArray(value) ? value.length : 1;

/** Custom headers one send may add (each stored with every recipient's email). */
const MAX_HEADERS = 50;

export const sendBody = z
  .object({
    to: recipients,
    cc: recipients.optional(),
    bcc: recipients.optional(),
    subject: singleLine(998).optional(),
    body: z.string().max(2_000_000).optional(),
    template: z.string().optional(),
    from: z
      .union([address, named])
      .optional()
      .meta({
        description:
          "The sender; without it, the template's, else the project's default sender (`defaultFrom` in " +
          'settings); none of them: 422',
      }),
    name: singleLine(200).optional(),
    reply: address.optional(),
    replyTo: z
      .union([address, z.array(address).min(1).max(MAX_REPLY_TO)])
      .optional()
      .meta({ description: `Reply-To: one address or up to ${MAX_REPLY_TO} (\`reply\` is the one-address form)` }),
    text: z
      .string()
      .max(2_000_000)
      .optional()
      .meta({ description: 'The plain-text part, sent as written; without it the text is made from the HTML' }),
    scheduledAt: scheduledAtSchema.optional(),
    tags: z.array(tagSchema).max(MAX_TAGS).optional(),
    headers: z
      .record(z.string(), z.string())
      .refine((headers) => Object.keys(headers).length <= MAX_HEADERS, { message: `at most ${MAX_HEADERS} headers` })
      .optional()
      .meta({ description: `Custom headers, at most ${MAX_HEADERS}` }),
    data: dataSchema
      .optional()
      .meta({ description: "Template variables over the contact's data; at most 16 levels deep and 64 KB as JSON" }),
    subscribed: z.boolean().optional(),
    attachments: z.array(attachmentSchema).max(MAX_ATTACHMENTS).optional(),
    tracking: z.boolean().optional(),
    stream: z
      .enum(['transactional', 'marketing'])
      .optional()
      .meta({
        description:
          'marketing: sent as marketing mail (unsubscribe link, not to unsubscribed contacts, its routing); ' +
          'a MARKETING template is marketing mail whatever this says',
      }),
    topicId: z
      .string()
      .max(64)
      .optional()
      .meta({ description: 'A topic: recipients whose contact is out of it get nothing (SUPPRESSED, reason TOPIC)' }),
  })
  .refine((body) => addressCount(body.to) + addressCount(body.cc) + addressCount(body.bcc) <= MAX_RECIPIENTS, {
    path: ['to'],
    message: `to, cc and bcc may hold at most ${MAX_RECIPIENTS} addresses together`,
  });

export type SendBody = z.infer<typeof sendBody>;

export const sendResult = z.object({
  emails: z.array(
    z.object({
      contact: z.object({ id: z.string(), email: z.string() }),
      email: z.string(),
      status: z.enum(['SCHEDULED', 'QUEUED', 'SUPPRESSED']),
    }),
  ),
  timestamp: z.string(),
});

export type SendResult = z.infer<typeof sendResult>;

export const batchBody = z.array(sendBody).min(1).max(MAX_BATCH);

export const batchResult = z.object({ results: z.array(sendResult) });

export type BatchResult = z.infer<typeof batchResult>;

/** What the API reference says about each send route, by operationId. */
export const sendRouteDocs = {
  sendEmail:
    'One message per recipient (up to 50; with cc or bcc one message to all of them), answered once the ' +
    'emails and their delivery jobs are committed. A sender off the verified domains is a 403; an ' +
    'unknown template a 404.',
  sendBatch:
    `1 to ${MAX_BATCH} /v1/send bodies. All are checked first: one invalid item is a 422 whose ` +
    '`errors[].field` starts with its zero-based index, and nothing is sent. Otherwise all are committed ' +
    'together; the results are in the order of the items.',
} as const;
