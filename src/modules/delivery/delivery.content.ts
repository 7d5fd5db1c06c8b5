// Bodies shared by many emails (a campaign's send) are stored once; each email row keeps only the
// variables its recipient's copy renders with. This file stores them and reads them back (cached).
import { eq } from 'drizzle-orm';
import { manageUrlOf } from '../../mail/variables.ts';
import type { Executor } from '../../db/client.ts';
import { emailContents } from '../../db/schema/emails.ts';
import { newId } from '../../lib/ids.ts';
import type { EmailRow } from './delivery.repo.ts';

export type ContentRow = typeof emailContents.$inferSelect;

// Side effect: stores a shared body (subject, html and optional text templates) and returns its id.
export async function storeContent(db: Executor, content: { projectId: string; subject: string; html: string; text?: string | null }): Promise<string> {
  const id = newId();
  await db.insert(emailContents).values({ id, projectId: content.projectId, subject: content.subject, html: content.html, text: content.text ?? null });
  return id;
}

// Contents never change once stored, so a process keeps the ones it used last.
const cache = new Map<string, ContentRow>();
const CACHE_SIZE = 100;

export async function findContent(db: Executor, id: string): Promise<ContentRow | null> {
  const hit = cache.get(id);
  if (hit) return hit;
  const [row] = await db.select().from(emailContents).where(eq(emailContents.id, id));
  if (!row) return null;
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(id, row);
  return row;
}

/** What the renderer needs for an email whose body is rendered at delivery; undefined when the row holds its body. */
export async function renderInputOf(db: Executor, email: Pick<EmailRow, 'contentId' | 'variables'>, unsubscribeUrl: string | undefined) {
  if (!email.contentId) return undefined;
  const content = await findContent(db, email.contentId);
  if (!content) throw new Error(`content ${email.contentId} is missing`);
  return {
    subject: content.subject, html: content.html, ...(content.text !== null ? { text: content.text } : {}),
    variables: { ...email.variables, unsubscribeUrl, manageUrl: manageUrlOf(unsubscribeUrl) },
  };
}
