// A send request's attachments as its messages carry them (base64), read once and shared by the messages of
// its recipients while they are delivered: a 50-recipient send with 10 MB attached reads 10 MB, not 500, and
// holds one copy. Kept for a short while after the last use, at most a few sets.
import type { Executor } from '../../db/client.ts';
import type { ComposeAttachment } from '../../mail/compose.ts';
import { findAttachments } from './delivery.repo.ts';

const MAX_SETS = 2;
const KEEP_MS = 30_000;

interface Entry {
  attachments: Promise<ComposeAttachment[]>;
  timer: NodeJS.Timeout;
}

const cache = new Map<string, Entry>();

function forget(setId: string): void {
  const entry = cache.get(setId);
  if (!entry) return;
  clearTimeout(entry.timer);
  cache.delete(setId);
}

function keep(setId: string, attachments: Promise<ComposeAttachment[]>): void {
  forget(setId);
  if (cache.size >= MAX_SETS) forget(cache.keys().next().value!);
  const timer = setTimeout(() => forget(setId), KEEP_MS);
  timer.unref();
  cache.set(setId, { attachments, timer });
}

/** The set's attachments in order, base64 (what the compose threads take). */
export async function attachmentsOf(db: Executor, setId: string): Promise<ComposeAttachment[]> {
  const hit = cache.get(setId);
  const attachments = hit?.attachments ?? findAttachments(db, setId).then((rows) => rows.map((a) => ({
    filename: a.filename, contentType: a.contentType, content: a.content.toString('base64'), ...(a.cid ? { cid: a.cid } : {}),
  })));
  keep(setId, attachments); // most recently used last; a failed read is not kept
  attachments.catch(() => forget(setId));
  return attachments;
}
