// An email with what it was sent with, beyond its record: the sender's name and the bodies.
import type { Executor } from '../../db/client.ts';
import { findOr404 } from '../../lib/errors.ts';
import { findContent, findEmail } from './emails.repo.ts';
import { toEmailView, type EmailView } from './emails.view.ts';

export interface EmailDetail {
  email: EmailView;
  fromName: string | null;
  /** The HTML as sent; for a body shared by many emails (a campaign's), the shared template it renders from. */
  html: string | null;
  text: string | null;
}

/** One email of the project with its sender name and bodies, or a 404. */
export async function getEmailDetail(opts: { db: Executor; projectId: string; id: string }): Promise<EmailDetail> {
  const row = await findOr404('Email', opts.id, () => findEmail(opts.db, opts.projectId, opts.id));
  const content = row.contentId ? await findContent(opts.db, row.contentId) : null;
  return {
    email: toEmailView(row),
    fromName: row.fromName,
    html: row.html ?? content?.html ?? null,
    text: row.text ?? content?.text ?? null,
  };
}
