// A send request's attachments as its messages carry them (base64), read once and shared by the messages of
// its recipients while they are delivered: a 50-recipient send with 10 MB attached reads 10 MB, not 500, and
// holds one copy. Kept for a short while after the last use, at most a few sets.
import type { Executor } from '../../db/client.ts';
import type { ComposeAttachment } from '../../mail/compose.ts';
import { findAttachments } from './emails.repo.ts';

const MAX_SETS = 2;
const KEEP_MS = 30_000;

interface Entry {
  attachments: Promise<ComposeAttachment[]>;
  timer: NodeJS.Timeout;
}

export class AttachmentCache {
  private readonly cache = new Map<string, Entry>();

  /** The set's attachments in order, base64 (what the compose threads take). */
  of(db: Executor, setId: string): Promise<ComposeAttachment[]> {
    const hit = this.cache.get(setId);
    const attachments =
      hit?.attachments ??
      findAttachments(db, setId).then((rows) =>
        rows.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content.toString('base64'),
          ...(a.cid ? { cid: a.cid } : {}),
        })),
      );
    this.keep(setId, attachments); // most recently used last; a failed read is not kept
    attachments.catch(() => this.forget(setId));
    return attachments;
  }

  private forget(setId: string): void {
    const entry = this.cache.get(setId);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.cache.delete(setId);
  }

  private keep(setId: string, attachments: Promise<ComposeAttachment[]>): void {
    this.forget(setId);
    if (this.cache.size >= MAX_SETS) this.forget(this.cache.keys().next().value!);
    const timer = setTimeout(() => this.forget(setId), KEEP_MS);
    timer.unref();
    this.cache.set(setId, { attachments, timer });
  }
}
