import { customType } from 'drizzle-orm/pg-core';

/** A bytea column read as a Buffer (PGlite hands back a Uint8Array, pg a Buffer). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
