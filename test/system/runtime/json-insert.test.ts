// jsonRowsInsert (src/db/json-insert.ts) on the real database: every column type the fan-out uses survives
// the trip through one JSON parameter, a column no row sets keeps its default, and a defaulted column that
// only some rows set is refused rather than silently stored as NULL.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Database } from '../../../src/db/client.ts';
import { jsonRowsInsert } from '../../../src/db/json-insert.ts';
import { rowsOf } from '../../../src/db/rows.ts';
import { newId } from '../../../src/lib/ids.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';

const probe = pgTable('json_insert_probe', {
  id: uuid('id').primaryKey(),
  label: text('label'),
  at: timestamp('at', { withTimezone: true, precision: 3 }),
  data: jsonb('data').$type<Record<string, unknown>>(),
  flag: boolean('flag').notNull().default(false),
  count: integer('count').notNull().default(7),
});

let testDb: TestDatabase;
let database: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = await testDb.open();
  await database.db
    .execute(sql`CREATE TABLE json_insert_probe (id uuid PRIMARY KEY, label text, at timestamptz(3), data jsonb,
    flag boolean NOT NULL DEFAULT false, count integer NOT NULL DEFAULT 7)`);
});

afterAll(async () => {
  await database.close();
  await testDb.drop();
});

it(
  'stores each row as given, NULL where a row leaves out an undefaulted column, ' + 'defaults where no row sets one',
  async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const rows = [
      {
        id: newId(),
        label: 'it\'s "quoted" \\ and ünïcode',
        at,
        data: { nested: { list: [1, 'two', null] }, quote: '"' },
        flag: true,
      },
      { id: newId(), label: null, data: null, flag: false },
    ];
    const inserted = rowsOf<{ id: string }>(await database.db.execute(jsonRowsInsert(probe, rows, sql`RETURNING id`)));
    expect(inserted.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
    const stored = await database.db.select().from(probe).orderBy(probe.id);
    const byId = new Map(stored.map((r) => [r.id, r]));
    expect(byId.get(rows[0]!.id)).toEqual({ ...rows[0], count: 7 });
    expect(byId.get(rows[1]!.id)).toEqual({ ...rows[1], at: null, count: 7 });
  },
);

it('passes the tail through (ON CONFLICT … DO NOTHING skips the repeated row)', async () => {
  const id = newId();
  await database.db.execute(jsonRowsInsert(probe, [{ id, label: 'first' }]));
  const again = rowsOf(
    await database.db.execute(
      jsonRowsInsert(
        probe,
        [
          { id, label: 'second' },
          { id: newId(), label: 'other' },
        ],
        sql`ON CONFLICT (id) DO NOTHING RETURNING id`,
      ),
    ),
  );
  expect(again).toHaveLength(1);
  const [kept] = await database.db
    .select()
    .from(probe)
    .where(sql`id = ${id}::uuid`);
  expect(kept?.label).toBe('first');
});

it('refuses rows of which only some set a column that has a default', () => {
  expect(() => jsonRowsInsert(probe, [{ id: newId(), count: 1 }, { id: newId() }])).toThrow(/leaves out count/);
});
