// pg-boss 10 talks to a database through `db: { executeSql(text, values) }`. Two of ours: an open drizzle
// transaction (a job then commits or rolls back with the caller's rows) and PGlite's single connection.
import type { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';

export interface BossDb {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

/**
 * pg-boss's `$1 … $N` text and values as one drizzle query. pg-boss reuses a parameter (`$5` as text in one
 * place, cast to a timestamp in another), so its text stays as written and the values go, in order, into a
 * leading comment, where drizzle numbers them $1 … $N as well: the statement binds them once each, as pg would.
 */
export function toDrizzleSql(text: string, values: unknown[] = []): SQL {
  if (values.length === 0) return sql.raw(text);
  const params = sql.join(
    values.map((v) => sql`${sql.param(v)}`),
    sql.raw(' '),
  );
  return sql.join([sql.raw('/* '), params, sql.raw(' */ '), sql.raw(text)]);
}

/** pg-boss inside an open drizzle transaction: its statements run on the caller's connection and commit with it. */
export function fromTransaction(tx: Tx): BossDb {
  return {
    async executeSql(text, values) {
      const result = await tx.execute(toDrizzleSql(text, values));
      return { rows: (result as unknown as { rows: unknown[] }).rows };
    },
  };
}

/**
 * pg-boss on PGlite's one connection. Parameterless text may be a multi-statement script (schema, migrations,
 * maintenance under an advisory lock): it goes through exec(), whose results are flattened. A failed statement
 * inside such a script would leave the one connection in an aborted transaction, so it is rolled back.
 */
export function fromPglite(pglite: PGlite): BossDb {
  return {
    async executeSql(text, values) {
      try {
        if (values?.length) return { rows: (await pglite.query(text, values)).rows };
        const results = await pglite.exec(text);
        return { rows: results.flatMap((r) => r.rows) };
      } catch (error) {
        await pglite.query('ROLLBACK').catch(() => {});
        throw error;
      }
    },
  };
}
