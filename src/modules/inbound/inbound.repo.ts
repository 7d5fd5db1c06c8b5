import { and, asc, eq, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { listPage } from '../../db/list-page.ts';
import { inboundAttachments, inboundMessages, inboundRaw } from '../../db/schema/inbound.ts';

export type InboundRow = typeof inboundMessages.$inferSelect;
export type AttachmentMeta = Omit<typeof inboundAttachments.$inferSelect, 'content'>;
export type NewInbound = typeof inboundMessages.$inferInsert;
export type NewAttachment = typeof inboundAttachments.$inferInsert;

export interface InboundFilters {
  to?: string | undefined;
  from?: string | undefined;
  search?: string | undefined;
}

const attachmentMeta = {
  inboundId: inboundAttachments.inboundId, position: inboundAttachments.position, id: inboundAttachments.id, filename: inboundAttachments.filename,
  contentType: inboundAttachments.contentType, size: inboundAttachments.size, contentId: inboundAttachments.contentId,
};

// Side effect: stores received messages (one per project), their raw bytes and attachments, in the caller's transaction.
export async function insertInbound(db: Executor, rows: { message: NewInbound; raw: Buffer; attachments: NewAttachment[] }[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(inboundMessages).values(rows.map((r) => r.message));
  await db.insert(inboundRaw).values(rows.map((r) => ({ inboundId: r.message.id, content: r.raw })));
  const attachments = rows.flatMap((r) => r.attachments);
  if (attachments.length > 0) await db.insert(inboundAttachments).values(attachments);
}

export async function findInbound(db: Executor, projectId: string, id: string): Promise<InboundRow | null> {
  const [row] = await db.select().from(inboundMessages).where(and(eq(inboundMessages.projectId, projectId), eq(inboundMessages.id, id)));
  return row ?? null;
}

/** The attachments' metadata of these messages, in message order. */
export async function findAttachments(db: Executor, inboundIds: string[]): Promise<AttachmentMeta[]> {
  if (inboundIds.length === 0) return [];
  return db.select(attachmentMeta).from(inboundAttachments).where(inArray(inboundAttachments.inboundId, inboundIds)).orderBy(asc(inboundAttachments.position));
}

/** One attachment's bytes (null once retention deleted them) with its metadata. */
export async function findAttachmentContent(db: Executor, inboundId: string, attachmentId: string) {
  const [row] = await db.select({ ...attachmentMeta, content: inboundAttachments.content }).from(inboundAttachments)
    .where(and(eq(inboundAttachments.inboundId, inboundId), eq(inboundAttachments.id, attachmentId)));
  return row ?? null;
}

export async function findRaw(db: Executor, inboundId: string): Promise<Buffer | null> {
  const [row] = await db.select({ content: inboundRaw.content }).from(inboundRaw).where(eq(inboundRaw.inboundId, inboundId));
  return row?.content ?? null;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listInbound(db: Executor, projectId: string, opts: { limit: number; cursor?: string | undefined } & InboundFilters) {
  const filters: (SQL | undefined)[] = [
    eq(inboundMessages.projectId, projectId),
    opts.to ? sql`${inboundMessages.recipients} @> ${JSON.stringify([opts.to])}::jsonb` : undefined,
    opts.from ? eq(inboundMessages.fromEmail, opts.from) : undefined,
    opts.search ? sql`(${inboundMessages.fromEmail} ILIKE ${`%${escapeLike(opts.search)}%`} OR ${inboundMessages.subject} ILIKE ${`%${escapeLike(opts.search)}%`})` : undefined,
  ];
  return listPage(db, inboundMessages, and(...filters), opts);
}

// Side effect: deletes a received message with its bytes and attachments.
export async function deleteInbound(db: Executor, projectId: string, id: string): Promise<boolean> {
  const rows = await db.delete(inboundMessages).where(and(eq(inboundMessages.projectId, projectId), eq(inboundMessages.id, id))).returning({ id: inboundMessages.id });
  return rows.length === 1;
}

/**
 * Side effect: retention. Marks up to `limit` messages received before `before` expired and deletes their raw
 * bytes and attachment bytes (the records stay); answers how many it expired.
 */
export async function expireInbound(db: Executor, before: Date, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx.select({ id: inboundMessages.id }).from(inboundMessages)
      .where(and(isNull(inboundMessages.expiredAt), lt(inboundMessages.createdAt, before))).orderBy(asc(inboundMessages.createdAt)).limit(limit).for('update', { skipLocked: true });
    const ids = due.map((r) => r.id);
    if (ids.length === 0) return 0;
    await tx.delete(inboundRaw).where(inArray(inboundRaw.inboundId, ids));
    await tx.update(inboundAttachments).set({ content: null }).where(inArray(inboundAttachments.inboundId, ids));
    await tx.update(inboundMessages).set({ expiredAt: new Date() }).where(inArray(inboundMessages.id, ids));
    return ids.length;
  });
}
