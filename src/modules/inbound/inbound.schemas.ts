import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';

const address = z.object({ email: z.string(), name: z.string() });
const verdict = z.enum(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror']);

export const inboundSummarySchema = z
  .object({
    id: z.string(),
    from: address,
    to: z.array(address),
    cc: z.array(address),
    recipients: z.array(z.string()).describe("The envelope recipients (RCPT TO) at this project's domains"),
    subject: z.string(),
    messageId: z.string().nullable(),
    inReplyTo: z.string().nullable(),
    references: z.array(z.string()),
    inReplyToEmailId: z.string().nullable().describe('The sent email this replies to (its Message-ID is In-Reply-To)'),
    attachments: z.array(
      z.object({
        id: z.string(),
        filename: z.string().nullable(),
        contentType: z.string(),
        size: z.number().int(),
        contentId: z.string().nullable(),
      }),
    ),
    authentication: z.object({ spf: verdict, dkim: verdict, dmarc: verdict }),
    contactId: z.string().nullable(),
    size: z.number().int().describe('Bytes as received'),
    receivedAt: isoDate,
    expired: z
      .boolean()
      .describe('The raw message, attachments, text and HTML were deleted after INBOUND_RETENTION_DAYS'),
    expiredAt: isoDate.nullable(),
  })
  .meta({ id: 'InboundMessageSummary' });

// Passed through as stored: a record schema would drop a header named __proto__.
const headers = z.any().meta({
  type: 'object',
  additionalProperties: { type: 'string' },
  description: "Lower-case names (any name, `__proto__` included); a repeated header's values joined by a newline",
});

export const inboundSchema = inboundSummarySchema
  .extend({
    text: z.string().nullable().describe('At most 1 MB (UTF-8); null after retention'),
    html: z
      .string()
      .nullable()
      .describe('As received, at most 1 MB: untrusted, show it only sandboxed; null after retention'),
    truncated: z
      .object({ text: z.boolean(), html: z.boolean() })
      .describe('The text or HTML was longer than 1 MB and is cut there (the raw message has it whole)'),
    headers,
  })
  .meta({ id: 'InboundMessage' });

const addressFilter = z.string().min(1).max(320);

export const listInboundQuery = paginationQuery.extend({
  to: addressFilter.optional().describe('An envelope recipient, exactly (case-insensitive)'),
  from: addressFilter.optional().describe('The sender address, exactly (case-insensitive)'),
  search: z.string().min(1).max(200).optional().describe('Case-insensitive substring of the sender address or subject'),
});

export const attachmentParams = z.object({ id: z.string(), attachmentId: z.string() });

/** What the API reference says about each inbound route, by operationId. */
export const inboundRouteDocs = {
  listInbound: 'Newest first, without the text, HTML and headers of each message (GET /inbound/{id} has them).',
  getInboundRaw: 'The bytes as received (message/rfc822); 410 once the retention period deleted them.',
  getInboundAttachment: 'The bytes with their content type, as a download; 410 once the retention period deleted them.',
} as const;
