// Bodies shared by many emails (a campaign's send) are stored once; each email row keeps only the
// variables its recipient's copy renders with. This file stores them and reads them back.
import { manageUrlOf } from '../../mail/variables.ts';
import { templateRoots } from '../../mail/template-roots.ts';
import type { Executor } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { findContent, insertContent, type EmailRow } from './emails.repo.ts';
import type { ContentRow } from './emails.types.ts';

/** Stores a shared body (subject, html and optional text templates) and returns its id. */
export async function storeContent(
  db: Executor,
  content: { projectId: string; subject: string; html: string; text?: string | null },
): Promise<string> {
  const id = newId();
  const { projectId, subject, html } = content;
  await insertContent(db, { id, projectId, subject, html, text: content.text ?? null });
  return id;
}

const CACHE_SIZE = 100;

/** Contents never change once stored, so a reader keeps the ones it used last. */
export class ContentCache {
  private readonly rows = new Map<string, ContentRow>();

  async find(db: Executor, id: string): Promise<ContentRow | null> {
    const hit = this.rows.get(id);
    if (hit) return hit;
    const row = await findContent(db, id);
    if (!row) return null;
    if (this.rows.size >= CACHE_SIZE) this.rows.delete(this.rows.keys().next().value!);
    this.rows.set(id, row);
    return row;
  }
}

const rootsOfContents = new Map<string, Set<string> | null>();

/**
 * The variables a stored content reads (its subject, and its body as stored: in its layout, with the layout's own
 * variables), which its emails' rows must keep for delivery to render it; null: keep them all.
 */
export async function contentRoots(db: Executor, id: string): Promise<Set<string> | null> {
  if (rootsOfContents.has(id)) return rootsOfContents.get(id)!;
  const content = await findContent(db, id);
  if (!content) throw new Error(`content ${id} is missing`);
  const roots = templateRoots([content.subject, content.html, content.text ?? '']);
  if (rootsOfContents.size >= CACHE_SIZE) rootsOfContents.delete(rootsOfContents.keys().next().value!);
  rootsOfContents.set(id, roots);
  return roots;
}

/** The links of a message that are made for it at delivery. */
export interface MessageLinkUrls {
  unsubscribeUrl: string | undefined;
  viewInBrowserUrl: string | undefined;
}

/** What the renderer needs for an email whose body is rendered at delivery; undefined when the row holds its body. */
export async function renderInputOf(
  db: Executor,
  email: Pick<EmailRow, 'contentId' | 'variables'>,
  links: MessageLinkUrls,
  cache?: ContentCache,
) {
  if (!email.contentId) return undefined;
  const content = cache ? await cache.find(db, email.contentId) : await findContent(db, email.contentId);
  if (!content) throw new Error(`content ${email.contentId} is missing`);
  return {
    subject: content.subject,
    html: content.html,
    ...(content.text !== null ? { text: content.text } : {}),
    variables: {
      ...email.variables,
      unsubscribeUrl: links.unsubscribeUrl,
      manageUrl: manageUrlOf(links.unsubscribeUrl),
      viewInBrowserUrl: links.viewInBrowserUrl,
    },
  };
}
