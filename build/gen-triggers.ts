// `npm run gen:triggers`: migrates a throw-away in-memory database and writes docs/database-triggers.md from it.
import fs from 'node:fs';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { TRIGGERS_PAGE, triggersPage } from './db-triggers.ts';

const database = await openDatabase({});
try {
  await migrateDatabase(database);
  fs.writeFileSync(TRIGGERS_PAGE, await triggersPage(database.db));
  console.log(`herald: ${TRIGGERS_PAGE} written`);
} finally {
  await database.close();
}
