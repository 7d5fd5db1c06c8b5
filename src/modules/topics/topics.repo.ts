import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { listPage } from '../../db/list-page.ts';
import { rowsOf } from '../../db/rows.ts';
import { contactTopics, topics } from '../../db/schema/index.ts';

export type TopicRow = typeof topics.$inferSelect;

/** Creates a topic. */
export async function insertTopic(db: Executor, row: typeof topics.$inferInsert): Promise<TopicRow> {
  const [created] = await db.insert(topics).values(row).returning();
  return created!;
}

/** A topic of the project, or null. */
export async function findTopic(db: Executor, projectId: string, id: string): Promise<TopicRow | null> {
  const [row] = await db
    .select()
    .from(topics)
    .where(and(eq(topics.projectId, projectId), eq(topics.id, id)));
  return row ?? null;
}

/** A newest-first page of the project's topics. */
export function listTopics(db: Executor, projectId: string, page: { limit: number; cursor?: string | undefined }) {
  return listPage(db, topics, eq(topics.projectId, projectId), page);
}

/** Every topic of the project, oldest first (the preference page and a contact's choices list them all). */
export async function allTopics(db: Executor, projectId: string): Promise<TopicRow[]> {
  return db.select().from(topics).where(eq(topics.projectId, projectId)).orderBy(topics.createdAt, topics.id);
}

/** Which of these ids are topics of the project. */
export async function existingTopicIds(db: Executor, projectId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: topics.id })
    .from(topics)
    .where(and(eq(topics.projectId, projectId), inArray(topics.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/** Share-locks the named topics, so none is deleted before the caller's reference to them commits. */
export async function lockTopicIds(tx: Executor, projectId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: topics.id })
    .from(topics)
    .where(and(eq(topics.projectId, projectId), inArray(topics.id, ids)))
    .for('share');
  return new Set(rows.map((r) => r.id));
}

/** Updates a topic's name or description. */
export async function updateTopicRow(
  db: Executor,
  projectId: string,
  id: string,
  patch: { name?: string; description?: string | null },
): Promise<TopicRow | null> {
  const [row] = await db
    .update(topics)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(topics.projectId, projectId), eq(topics.id, id)))
    .returning();
  return row ?? null;
}

/** Locks the topic row until the transaction ends (a delete checks who names it first). */
export async function lockTopic(tx: Executor, projectId: string, id: string): Promise<TopicRow | null> {
  const [row] = await tx
    .select()
    .from(topics)
    .where(and(eq(topics.projectId, projectId), eq(topics.id, id)))
    .for('update');
  return row ?? null;
}

/** Deletes a topic with every contact's choice for it (finished campaigns that named it lose it). */
export async function deleteTopicRow(db: Executor, projectId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(topics)
    .where(and(eq(topics.projectId, projectId), eq(topics.id, id)))
    .returning({ id: topics.id });
  return rows.length === 1;
}

/** A contact's own choices, by topic id. */
export async function contactChoices(db: Executor, contactId: string): Promise<Map<string, boolean>> {
  const rows = await db.select().from(contactTopics).where(eq(contactTopics.contactId, contactId));
  return new Map(rows.map((r) => [r.topicId, r.subscribed]));
}

/** Records a contact's choices (insert or replace); returns the choices that changed. */
export async function upsertChoices(
  db: Executor,
  contactId: string,
  choices: { topicId: string; subscribed: boolean }[],
): Promise<{ topicId: string; subscribed: boolean }[]> {
  if (choices.length === 0) return [];
  const values = sql.join(
    choices.map((c) => sql`(${contactId}::uuid, ${c.topicId}::uuid, ${c.subscribed}::boolean)`),
    sql`, `,
  );
  const result = await db.execute(sql`
    WITH input (contact_id, topic_id, subscribed) AS (VALUES ${values}),
    before AS (SELECT ct.topic_id, ct.subscribed FROM contact_topics ct JOIN input i ON i.contact_id = ct.contact_id
      AND i.topic_id = ct.topic_id),
    written AS (
      INSERT INTO contact_topics (contact_id, topic_id, subscribed) SELECT contact_id, topic_id, subscribed FROM input
      ON CONFLICT (contact_id, topic_id) DO UPDATE SET subscribed = excluded.subscribed, updated_at = now()
      RETURNING topic_id, subscribed
    )
    SELECT w.topic_id, w.subscribed FROM written w LEFT JOIN before b ON b.topic_id = w.topic_id
      WHERE b.subscribed IS DISTINCT FROM w.subscribed`);
  return rowsOf<{ topic_id: string; subscribed: boolean }>(result).map((r) => ({
    topicId: r.topic_id,
    subscribed: r.subscribed,
  }));
}

/** Of these contacts, those out of the topic (their choice, or the default where they made none). */
export async function contactsOutOfTopic(db: Executor, topic: TopicRow, contactIds: string[]): Promise<Set<string>> {
  if (contactIds.length === 0) return new Set();
  const ids = sql.join(
    contactIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const optIn = topic.defaultSubscription === 'OPT_IN';
  const result = await db.execute(sql`
    SELECT c.id FROM (SELECT unnest(ARRAY[${ids}]) AS id) c
    LEFT JOIN contact_topics ct ON ct.contact_id = c.id AND ct.topic_id = ${topic.id}::uuid
    WHERE NOT COALESCE(ct.subscribed, ${!optIn}::boolean)`);
  return new Set(rowsOf<{ id: string }>(result).map((r) => r.id));
}
