import { z } from 'zod';
import { isoDate } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';

const address = z.object({ email: z.string(), name: z.string() });
const verdict = z.enum(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror']);

export const inboundSchema = z.object({
  id: z.string(),
  from: address,
  to: z.array(address),
  cc: z.array(address),
  recipients: z.array(z.string()).describe('The envelope recipients (RCPT TO) at this project\'s domains'),
  subject: z.string(),
  text: z.string().nullable(),
  html: z.string().nullable().describe('As received: untrusted, show it only sandboxed'),
  headers: z.record(z.string(), z.string()).describe('Lower-case names; a repeated header\'s values joined by a newline'),
  messageId: z.string().nullable(),
  inReplyTo: z.string().nullable(),
  references: z.array(z.string()),
  inReplyToEmailId: z.string().nullable().describe('The sent email this replies to (its Message-ID is In-Reply-To)'),
  attachments: z.array(z.object({ id: z.string(), filename: z.string().nullable(), contentType: z.string(), size: z.number().int(), contentId: z.string().nullable() })),
  authentication: z.object({ spf: verdict, dkim: verdict, dmarc: verdict }),
  contactId: z.string().nullable(),
  size: z.number().int().describe('Bytes as received'),
  receivedAt: isoDate,
  expired: z.boolean().describe('The raw message and attachments were deleted after INBOUND_RETENTION_DAYS'),
  expiredAt: isoDate.nullable(),
}).meta({ id: 'InboundMessage' });

const addressFilter = z.string().min(1).max(320);

export const listInboundQuery = paginationQuery.extend({
  to: addressFilter.optional().describe('An envelope recipient, exactly (case-insensitive)'),
  from: addressFilter.optional().describe('The sender address, exactly (case-insensitive)'),
  search: z.string().min(1).max(200).optional().describe('Case-insensitive substring of the sender address or subject'),
});

export const attachmentParams = z.object({ id: z.string(), attachmentId: z.string() });
