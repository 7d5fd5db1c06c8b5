import { and, asc, eq, ilike, inArray, isNull, lt, or, sql, sum, type SQL } from 'drizzle-orm';
import { containsPattern } from '../../lib/text.ts';
import type { Executor } from '../../db/client.ts';
import { listPage } from '../../db/list-page.ts';
import { PIECE_BYTES } from '../../net/smtp-intake.ts';
import { bytesOf } from '../../db/schema/bytea.ts';
import { inboundAttachments, inboundContent, inboundMessages, inboundUsage } from '../../db/schema/inbound.ts';

export type InboundRow = typeof inboundMessages.$inferSelect;
export type AttachmentMeta = typeof inboundAttachments.$inferSelect;
export type NewInbound = typeof inboundMessages.$inferInsert;
export type NewAttachment = typeof inboundAttachments.$inferInsert;

/** What a list shows of a message: no bodies, no headers. */
export const LIST_OMITS = ['text', 'html', 'headers'] as const;
export type InboundSummaryRow = Omit<InboundRow, (typeof LIST_OMITS)[number]>;

/** Part 0 of a message's content is the message as received; part n the attachment at position n - 1. */
export const RAW_PART = 0;
export const attachmentPart = (position: number) => position + 1;

/** Bytes per stored piece (what the listener hands over: PIECE_BYTES), and pieces per statement (about 1 MB). */
const PIECES_PER_INSERT = 4;

export interface InboundFilters {
  to?: string | undefined;
  from?: string | undefined;
  search?: string | undefined;
}

/** `bytes` cut in pieces of PIECE_BYTES (one empty piece for no bytes). */
function piecesOf(bytes: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < bytes.length || pieces.length === 0; offset += PIECE_BYTES)
    pieces.push(bytes.subarray(offset, offset + PIECE_BYTES));
  return pieces;
}

/** Stores `pieces` as part `part` of a message, in order, a few per statement. */
async function insertContent(db: Executor, inboundId: string, part: number, pieces: Buffer[]): Promise<void> {
  for (let first = 0; first < Math.max(1, pieces.length); first += PIECES_PER_INSERT) {
    const batch = pieces.length === 0 ? [Buffer.alloc(0)] : pieces.slice(first, first + PIECES_PER_INSERT);
    await db.insert(inboundContent).values(batch.map((content, i) => ({ inboundId, part, seq: first + i, content })));
  }
}

/** Adds `bytes` (or takes them away, when negative) to a project's storage in use. */
async function addUsage(db: Executor, projectId: string, bytes: number): Promise<void> {
  if (bytes === 0) return;
  await db
    .insert(inboundUsage)
    .values({ projectId, storedBytes: bytes })
    .onConflictDoUpdate({
      target: inboundUsage.projectId,
      set: { storedBytes: sql`${inboundUsage.storedBytes} + ${bytes}` },
    });
}

/**
 * Stores a received message (for one project) with its raw pieces and attachments, and counts its stored bytes
 * toward the project's storage, in the caller's transaction (the count last: its row stays locked until the commit).
 */
export async function insertInbound(
  db: Executor,
  row: { message: NewInbound; pieces: Buffer[]; attachments: (NewAttachment & { content: Buffer })[] },
): Promise<void> {
  await db.insert(inboundMessages).values(row.message);
  await insertContent(db, row.message.id, RAW_PART, row.pieces);
  if (row.attachments.length > 0) {
    await db.insert(inboundAttachments).values(row.attachments.map(({ content: _content, ...meta }) => meta));
    for (const attachment of row.attachments)
      await insertContent(db, row.message.id, attachmentPart(attachment.position), piecesOf(attachment.content));
  }
  await addUsage(db, row.message.projectId, row.message.storedBytes ?? 0);
}

export async function findInbound(db: Executor, projectId: string, id: string): Promise<InboundRow | null> {
  const [row] = await db
    .select()
    .from(inboundMessages)
    .where(and(eq(inboundMessages.projectId, projectId), eq(inboundMessages.id, id)));
  return row ?? null;
}

/** The attachments' metadata of these messages, in message order. */
export async function findAttachments(db: Executor, inboundIds: string[]): Promise<AttachmentMeta[]> {
  if (inboundIds.length === 0) return [];
  return db
    .select()
    .from(inboundAttachments)
    .where(inArray(inboundAttachments.inboundId, inboundIds))
    .orderBy(asc(inboundAttachments.position));
}

export async function findAttachment(
  db: Executor,
  inboundId: string,
  attachmentId: string,
): Promise<AttachmentMeta | null> {
  const [row] = await db
    .select()
    .from(inboundAttachments)
    .where(and(eq(inboundAttachments.inboundId, inboundId), eq(inboundAttachments.id, attachmentId)));
  return row ?? null;
}

/** Whether any piece of the part is still stored (retention deletes them all at once). */
export async function hasContent(db: Executor, inboundId: string, part: number): Promise<boolean> {
  const [row] = await db
    .select({ seq: inboundContent.seq })
    .from(inboundContent)
    .where(and(eq(inboundContent.inboundId, inboundId), eq(inboundContent.part, part)))
    .limit(1);
  return row !== undefined;
}

/** The pieces of a part in order, read one at a time (a download never holds the whole part). */
export async function* readContent(db: Executor, inboundId: string, part: number): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq += 1) {
    const [row] = await db
      .select({ content: bytesOf(inboundContent.content) })
      .from(inboundContent)
      .where(and(eq(inboundContent.inboundId, inboundId), eq(inboundContent.part, part), eq(inboundContent.seq, seq)));
    if (!row) return;
    yield row.content;
  }
}

export async function listInbound(
  db: Executor,
  projectId: string,
  opts: { limit: number; cursor?: string | undefined } & InboundFilters,
) {
  const filters: (SQL | undefined)[] = [
    eq(inboundMessages.projectId, projectId),
    opts.to ? sql`${inboundMessages.recipients} @> ${JSON.stringify([opts.to])}::jsonb` : undefined,
    opts.from ? eq(inboundMessages.fromEmail, opts.from) : undefined,
    opts.search
      ? or(
          ilike(inboundMessages.fromEmail, containsPattern(opts.search)),
          ilike(inboundMessages.subject, containsPattern(opts.search)),
        )
      : undefined,
  ];
  return listPage(db, inboundMessages, and(...filters), opts, { omit: LIST_OMITS });
}

/** Bytes the project's unexpired messages keep (raw, attachments, text, HTML). */
export async function storedBytes(db: Executor, projectId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: inboundUsage.storedBytes })
    .from(inboundUsage)
    .where(eq(inboundUsage.projectId, projectId));
  return row?.bytes ?? 0;
}

/** Deletes a received message with its bytes and attachments, and gives its storage back to the project. */
export async function deleteInbound(db: Executor, projectId: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(inboundMessages)
      .where(and(eq(inboundMessages.projectId, projectId), eq(inboundMessages.id, id)))
      .returning({ storedBytes: inboundMessages.storedBytes });
    if (!row) return false;
    await addUsage(tx, projectId, -row.storedBytes);
    return true;
  });
}

/**
 * Side effect: retention. Marks up to `limit` messages received before `before` expired and deletes their raw
 * bytes, attachment bytes, text and HTML (the records stay); answers how many it expired.
 */
export async function expireInbound(db: Executor, before: Date, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: inboundMessages.id })
      .from(inboundMessages)
      .where(and(isNull(inboundMessages.expiredAt), lt(inboundMessages.createdAt, before)))
      .orderBy(asc(inboundMessages.createdAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    const ids = due.map((r) => r.id);
    if (ids.length === 0) return 0;
    const freed = await tx
      .select({ projectId: inboundMessages.projectId, bytes: sum(inboundMessages.storedBytes).mapWith(Number) })
      .from(inboundMessages)
      .where(inArray(inboundMessages.id, ids))
      .groupBy(inboundMessages.projectId);
    for (const { projectId, bytes } of freed) await addUsage(tx, projectId, -bytes);
    await tx.delete(inboundContent).where(inArray(inboundContent.inboundId, ids));
    await tx
      .update(inboundMessages)
      .set({ expiredAt: new Date(), text: null, html: null, storedBytes: 0 })
      .where(inArray(inboundMessages.id, ids));
    return ids.length;
  });
}
