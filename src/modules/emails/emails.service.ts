// The email log: every message Herald made, as the API shows it.
import { Readable } from 'node:stream';
import type { Executor } from '../../db/client.ts';
import { AppError, findOr404, notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { toPage, type Page } from '../../lib/pagination.ts';
import {
  findAttachmentAt,
  findAttachmentMeta,
  findEmail,
  listEmails as listEmailRows,
  type EmailFilters,
  type EmailRow,
} from './emails.repo.ts';
import { toEmailView, type EmailView } from './emails.view.ts';

/** GET /emails: newest first, by status, contact, source or recipient; an id filter that is no id matches nothing. */
export async function listEmails(
  opts: { db: Executor; projectId: string; limit: number; cursor?: string | undefined } & EmailFilters,
): Promise<Page<EmailView>> {
  const idsOk = (!opts.contactId || isId(opts.contactId)) && (!opts.sourceId || isId(opts.sourceId));
  if (!idsOk) return { items: [], nextCursor: null, hasMore: false, total: 0 };
  const { rows, total } = await listEmailRows(opts.db, opts.projectId, opts);
  return toPage(rows, opts.limit, total, toEmailView);
}

/** GET /emails/{id}. */
export async function getEmail(opts: { db: Executor; projectId: string; id: string }): Promise<EmailView> {
  return toEmailView(await findOr404('Email', opts.id, () => findEmail(opts.db, opts.projectId, opts.id)));
}

/** The stored row of one of the project's emails, or null. */
export function findEmailRow(opts: { db: Executor; projectId: string; id: string }): Promise<EmailRow | null> {
  return findEmail(opts.db, opts.projectId, opts.id);
}

/** An attachment an email was sent with, without its bytes; `position` is its place among them, from 0. */
export interface EmailAttachmentMeta {
  position: number;
  filename: string;
  contentType: string;
  size: number;
  contentId: string | null;
}

/** The email's row, while its content is kept: 404 for no such email, 410 once retention dropped its content. */
async function withContent(opts: { db: Executor; projectId: string; id: string }): Promise<EmailRow> {
  const email = await findOr404('Email', opts.id, () => findEmail(opts.db, opts.projectId, opts.id));
  if (email.contentDroppedAt)
    throw new AppError('GONE', 'The attachments of this email were deleted after the retention period', {
      suggestion: "An email's content and attachments are kept for RETENTION_EMAIL_CONTENT_DAYS; its record stays.",
    });
  return email;
}

/** The attachments an email was sent with, in order. */
export async function listEmailAttachments(opts: {
  db: Executor;
  projectId: string;
  id: string;
}): Promise<EmailAttachmentMeta[]> {
  const email = await withContent(opts);
  if (!email.attachmentSetId) return [];
  return (await findAttachmentMeta(opts.db, email.attachmentSetId)).map((a) => ({
    position: a.position,
    filename: a.filename,
    contentType: a.contentType,
    size: a.size,
    contentId: a.cid,
  }));
}

/** One attachment an email was sent with, with its bytes; 404 for none at `position`, 410 after retention. */
export async function getEmailAttachment(opts: { db: Executor; projectId: string; id: string; position: number }) {
  const email = await withContent(opts);
  const row =
    email.attachmentSetId && Number.isInteger(opts.position)
      ? await findAttachmentAt(opts.db, email.attachmentSetId, opts.position)
      : null;
  if (!row) throw notFound('Attachment');
  return {
    filename: row.filename,
    contentType: row.contentType,
    size: row.size,
    content: Readable.from([row.content]),
  };
}
