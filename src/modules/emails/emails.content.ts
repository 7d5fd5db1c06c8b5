// Bodies shared by many emails (a campaign's send) are stored once; each email row keeps only the
// variables its recipient's copy renders with. This file stores them and reads them back.
import { eq } from 'drizzle-orm';
import { manageUrlOf } from '../../mail/variables.ts';
import type { Executor } from '../../db/client.ts';
import { emailContents } from '../../db/schema/emails.ts';
import { newId } from '../../lib/ids.ts';
import type { EmailRow } from './emails.repo.ts';

export type ContentRow = typeof emailContents.$inferSelect;

// Side effect: stores a shared body (subject, html and optional text templates) and returns its id.
export async function storeContent(db: Executor, content: { projectId: string; subject: string; html: string; text?: string | null }): Promise<string> {
  const id = newId();
  await db.insert(emailContents).values({ id, projectId: content.projectId, subject: content.subject, html: content.html, text: content.text ?? null });
  return id;
}

const CACHE_SIZE = 100;

/** Contents never change once stored, so a reader keeps the ones it used last. */
export class ContentCache {
  private readonly rows = new Map<string, ContentRow>();

  async find(db: Executor, id: string): Promise<ContentRow | null> {
    const hit = this.rows.get(id);
    if (hit) return hit;
    const [row] = await db.select().from(emailContents).where(eq(emailContents.id, id));
    if (!row) return null;
    if (this.rows.size >= CACHE_SIZE) this.rows.delete(this.rows.keys().next().value!);
    this.rows.set(id, row);
    return row;
  }
}

export async function findContent(db: Executor, id: string): Promise<ContentRow | null> {
  const [row] = await db.select().from(emailContents).where(eq(emailContents.id, id));
  return row ?? null;
}

/** What the renderer needs for an email whose body is rendered at delivery; undefined when the row holds its body. */
export async function renderInputOf(
  db: Executor, email: Pick<EmailRow, 'contentId' | 'variables'>, unsubscribeUrl: string | undefined, cache?: ContentCache,
) {
  if (!email.contentId) return undefined;
  const content = cache ? await cache.find(db, email.contentId) : await findContent(db, email.contentId);
  if (!content) throw new Error(`content ${email.contentId} is missing`);
  return {
    subject: content.subject, html: content.html, ...(content.text !== null ? { text: content.text } : {}),
    variables: { ...email.variables, unsubscribeUrl, manageUrl: manageUrlOf(unsubscribeUrl) },
  };
}
