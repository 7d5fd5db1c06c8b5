import { z } from 'zod';
import { emailSchema as address } from '../contacts/index.ts';
import { singleLine } from '../templates/index.ts';

export const MAX_RECIPIENTS = 50;
export const MAX_ATTACHMENTS = 10;
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

const named = z.object({ name: singleLine(200).optional(), email: address });
const recipient = z.union([address, named]);

export const attachmentSchema = z.object({
  filename: singleLine(255).pipe(z.string().min(1)),
  content: z.string().min(1).describe('Base64-encoded file content'),
  contentType: z.string().max(255).regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type such as application/pdf').optional(),
});

export const sendBody = z.object({
  to: z.union([recipient, z.array(recipient).min(1).max(MAX_RECIPIENTS)]),
  subject: singleLine(998).optional(),
  body: z.string().max(2_000_000).optional(),
  template: z.string().optional(),
  from: z.union([address, named]).optional(),
  name: singleLine(200).optional(),
  reply: address.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  subscribed: z.boolean().optional(),
  attachments: z.array(attachmentSchema).max(MAX_ATTACHMENTS).optional(),
  tracking: z.boolean().optional(),
});

export type SendBody = z.infer<typeof sendBody>;

export const sendResult = z.object({
  emails: z.array(z.object({
    contact: z.object({ id: z.string(), email: z.string() }),
    email: z.string(),
    status: z.enum(['QUEUED', 'SUPPRESSED']),
  })),
  timestamp: z.string(),
});

export type SendResult = z.infer<typeof sendResult>;
