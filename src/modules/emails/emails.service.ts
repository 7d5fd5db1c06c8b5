// The email log: every message Herald made, as the API shows it.
import type { Executor } from '../../db/client.ts';
import { findOr404 } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { toPage, type Page } from '../../lib/pagination.ts';
import { findEmail, listEmails as listEmailRows, type EmailFilters, type EmailRow } from './emails.repo.ts';
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
