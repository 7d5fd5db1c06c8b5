// `npm run gen:api`: builds the server's OpenAPI document in-process (the real app on a throw-away in-memory
// database, as the runtime assembles it) and writes the API types of the dashboard and of the typed client from it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { assemble } from '../src/runtime.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { API_TYPES_FILES, apiTypesOf } from './api-types.ts';

async function openApiDocument(): Promise<unknown> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-gen-api-'));
  const database = await openDatabase({});
  try {
    await migrateDatabase(database);
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const secrets = { adminToken: randomBytes(24).toString('hex'), appSecret: randomBytes(32).toString('hex') };
    const ctx = await assemble({ config, database, logger: pino({ level: 'silent' }), secrets });
    try {
      const app = await buildApp(ctx);
      try {
        const res = await app.inject({ method: 'GET', url: '/openapi.json' });
        if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
        return res.json();
      } finally {
        await app.close();
      }
    } finally {
      await ctx.queue.stop();
      await ctx.transport.close();
    }
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const types = await apiTypesOf(await openApiDocument());
for (const file of API_TYPES_FILES) {
  fs.writeFileSync(file, types);
  console.log(`herald: API types written to ${path.relative(process.cwd(), file)}`);
}
