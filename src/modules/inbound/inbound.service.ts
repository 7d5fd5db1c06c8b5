import { Readable } from 'node:stream';
import type { Executor } from '../../db/client.ts';
import { AppError, findOr404, notFound } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { isId } from '../../lib/ids.ts';
import { normalizeEmail } from '../../lib/email-address.ts';
import { toPage } from '../../lib/pagination.ts';
import { recordAudit } from '../audit/index.ts';
import * as repo from './inbound.repo.ts';
import { daysBefore } from '../../lib/durations.ts';

/** The API shape of a received message in a list: no bodies, no headers. */
export function toInboundSummary(row: repo.InboundSummaryRow, attachments: repo.AttachmentMeta[]) {
  return {
    id: row.id,
    from: { email: row.fromEmail, name: row.fromName },
    to: row.to,
    cc: row.cc,
    recipients: row.recipients,
    subject: row.subject,
    messageId: row.messageId,
    inReplyTo: row.inReplyTo,
    references: row.references,
    inReplyToEmailId: row.inReplyToEmailId,
    attachments: attachments.map((a) => ({
      id: a.id,
      filename: a.filename,
      contentType: a.contentType,
      size: a.size,
      contentId: a.contentId,
    })),
    authentication: row.authentication,
    contactId: row.contactId,
    size: row.size,
    receivedAt: iso(row.createdAt),
    expired: row.expiredAt !== null,
    expiredAt: iso(row.expiredAt),
  };
}

/** The API shape of one received message: the summary with the text, HTML and headers. */
export function toInboundView(row: repo.InboundRow, attachments: repo.AttachmentMeta[]) {
  return {
    ...toInboundSummary(row, attachments),
    text: row.text,
    html: row.html,
    truncated: { text: row.textTruncated, html: row.htmlTruncated },
    headers: row.headers,
  };
}

export type InboundView = ReturnType<typeof toInboundView>;
export type InboundSummary = ReturnType<typeof toInboundSummary>;

function requireInbound(opts: { db: Executor; projectId: string; id: string }): Promise<repo.InboundRow> {
  return findOr404('Inbound message', opts.id, () => repo.findInbound(opts.db, opts.projectId, opts.id));
}

export async function getInbound(opts: { db: Executor; projectId: string; id: string }): Promise<InboundView> {
  const row = await requireInbound(opts);
  return toInboundView(row, await repo.findAttachments(opts.db, [row.id]));
}

/** GET /inbound: newest first; `to` (an envelope recipient) and `from` exact, `search` in the sender and subject. */
export async function listInbound(
  opts: { db: Executor; projectId: string; limit: number; cursor?: string | undefined } & repo.InboundFilters,
) {
  const filters = { ...opts, to: opts.to && normalizeEmail(opts.to), from: opts.from && normalizeEmail(opts.from) };
  const { rows, total } = await repo.listInbound(opts.db, opts.projectId, filters);
  const attachments = await repo.findAttachments(
    opts.db,
    rows.map((r) => r.id),
  );
  return toPage(rows, opts.limit, total, (row) =>
    toInboundSummary(
      row,
      attachments.filter((a) => a.inboundId === row.id),
    ),
  );
}

const expiredError = (what: string) =>
  new AppError('GONE', `The ${what} of this message was deleted after the retention period`, {
    suggestion: 'Raw messages, attachments and bodies are kept for INBOUND_RETENTION_DAYS; the record itself stays.',
  });

/** A part's bytes as a stream read piece by piece; 410 once retention deleted them. */
async function contentStream(db: Executor, inboundId: string, part: number, what: string): Promise<Readable> {
  if (!(await repo.hasContent(db, inboundId, part))) throw expiredError(what);
  return Readable.from(repo.readContent(db, inboundId, part), { objectMode: false });
}

/** The message as received, byte for byte (streamed); 410 once retention deleted it. */
export async function getInboundRaw(opts: {
  db: Executor;
  projectId: string;
  id: string;
}): Promise<{ size: number; content: Readable }> {
  const row = await requireInbound(opts);
  return { size: row.size, content: await contentStream(opts.db, row.id, repo.RAW_PART, 'raw source') };
}

/**
 * One attachment's metadata and bytes (streamed); 404 for an unknown attachment, 410 once retention deleted the bytes.
 */
export async function getInboundAttachment(opts: {
  db: Executor;
  projectId: string;
  id: string;
  attachmentId: string;
}) {
  const row = await requireInbound(opts);
  const attachment = isId(opts.attachmentId) ? await repo.findAttachment(opts.db, row.id, opts.attachmentId) : null;
  if (!attachment) throw notFound('Attachment');
  return {
    ...attachment,
    content: await contentStream(opts.db, row.id, repo.attachmentPart(attachment.position), 'attachment'),
  };
}

export async function deleteInbound(opts: { db: Executor; projectId: string; id: string }) {
  const deleted =
    isId(opts.id) &&
    (await opts.db.transaction(async (tx) => {
      if (!(await repo.deleteInbound(tx, opts.projectId, opts.id))) return false;
      // The id alone: who wrote and what is personal data, gone with the message.
      await recordAudit(tx, {
        action: 'inbound_message.deleted',
        resourceType: 'inbound_message',
        resourceId: opts.id,
        projectId: opts.projectId,
      });
      return true;
    }));
  if (!deleted) throw notFound('Inbound message');
  return { id: opts.id, deleted: true as const };
}

/** Retention: expires the raw bytes and attachments of messages older than `days`, in batches; answers how many. */
export async function expireInbound(opts: {
  db: Executor;
  days: number;
  batchSize?: number;
  now?: Date;
}): Promise<number> {
  const before = daysBefore(opts.now ?? new Date(), opts.days);
  let total = 0;
  for (;;) {
    const expired = await repo.expireInbound(opts.db, before, opts.batchSize ?? 100);
    total += expired;
    if (expired < (opts.batchSize ?? 100)) return total;
  }
}
