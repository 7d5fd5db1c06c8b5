import { sql, type SQL } from 'drizzle-orm';
import { customType, type PgColumn } from 'drizzle-orm/pg-core';

/**
 * A bytea column read as a Buffer (PGlite hands back a Uint8Array, pg a Buffer). Written as base64 that the
 * database decodes: the embedded database's own encoding of a byte parameter (hex, digit by digit in JavaScript)
 * costs about ten times as much time and memory.
 */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => sql`decode(${value.toString('base64')}, 'base64')` as unknown as Buffer,
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** Selects a bytea column as base64 decoded here, the cheap way to read large bytes on the embedded database. */
export function bytesOf(column: PgColumn): SQL<Buffer> {
  return sql<string>`encode(${column}, 'base64')`.mapWith((value: string) => Buffer.from(value, 'base64'));
}
