import { z } from 'zod';
import { iso, isoDate } from '../../lib/http.ts';
import type { MailboxProvider } from '../../db/schema/transports.ts';
import { messageIdFor } from '../../mail/compose.ts';
import { MAILBOX_PROVIDERS } from '../../mail/providers.ts';
import type { EmailSummaryRow } from './emails.repo.ts';

export const emailStatus = z.enum([
  'SCHEDULED',
  'QUEUED',
  'SENDING',
  'SENT',
  'DELIVERED',
  'DEFERRED',
  'BOUNCED',
  'COMPLAINED',
  'FAILED',
  'SUPPRESSED',
  'CANCELLED',
]);

export const mailboxProvider = z.enum(MAILBOX_PROVIDERS as [MailboxProvider, ...MailboxProvider[]]);

export const emailSchema = z
  .object({
    id: z.string(),
    to: z.union([z.string(), z.array(z.string())]).meta({
      description: 'The recipient, or every `To` address of one message to several (sent with cc or bcc)',
    }),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    from: z.string(),
    replyTo: z.array(z.string()),
    tags: z.array(z.object({ name: z.string(), value: z.string() })),
    scheduledAt: isoDate.nullable(),
    subject: z.string(),
    locale: z.string().nullable().meta({ description: 'The translation it was written in (pt); null: the default' }),
    status: emailStatus,
    statusReason: z.string().nullable(),
    transportId: z
      .string()
      .nullable()
      .meta({
        description:
          'The transport that carried it (a transport id, or `default`; after a failover, the fallback); ' +
          'null until it is handed over',
      }),
    provider: mailboxProvider.nullable().meta({
      description: "The recipient's mailbox provider, from its domain's MX hosts; null until it is handed over",
    }),
    source: z.object({
      type: z.enum(['TRANSACTIONAL', 'CAMPAIGN', 'WORKFLOW', 'TEST', 'SMTP']),
      id: z.string().nullable(),
    }),
    contactId: z.string().nullable(),
    messageId: z.string(),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    sentAt: isoDate.nullable(),
    openedAt: isoDate.nullable(),
    clickedAt: isoDate.nullable(),
    opens: z.number().int(),
    clicks: z.number().int(),
    createdAt: isoDate,
  })
  .meta({ id: 'Email' });

export type EmailView = z.infer<typeof emailSchema>;

/** `to` of an email record and its events: its address, or every `To` address of one message to several. */
export function recipientsOf(row: { toEmail: string; toList: { email: string }[] | null }): string | string[] {
  return row.toList ? row.toList.map((a) => a.email) : row.toEmail;
}

/** A stored provider as the API names it (null when there is none, or not one it knows). */
export function providerOf(value: string | null | undefined): MailboxProvider | null {
  const parsed = mailboxProvider.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The API shape of an email record. */
export function toEmailView(row: EmailSummaryRow): EmailView {
  return {
    id: row.id,
    to: recipientsOf(row),
    cc: (row.cc ?? []).map((a) => a.email),
    bcc: (row.bcc ?? []).map((a) => a.email),
    from: row.fromEmail,
    replyTo: row.replyTo ? row.replyTo.split(', ') : [],
    tags: row.tags ?? [],
    scheduledAt: iso(row.scheduledAt),
    subject: row.subject,
    locale: row.locale ?? null,
    status: row.status,
    statusReason: row.statusReason,
    transportId: row.transportId ?? null,
    provider: providerOf(row.provider),
    source: { type: row.sourceType, id: row.sourceId },
    contactId: row.contactId,
    messageId: messageIdFor(row),
    attempts: row.attempts,
    lastError: row.lastError,
    sentAt: iso(row.sentAt),
    openedAt: iso(row.openedAt),
    clickedAt: iso(row.clickedAt),
    opens: row.opens,
    clicks: row.clicks,
    createdAt: iso(row.createdAt),
  };
}
