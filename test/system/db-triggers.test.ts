// docs/database-triggers.md is what the migrations give: every trigger left in the schema, with the reason it is
// a trigger, read from the catalog of a migrated test database.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGENERATE_TRIGGERS, TRIGGERS_PAGE, triggersPage } from '../../build/db-triggers.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('database triggers page', () => {
  it(`is current (run ${REGENERATE_TRIGGERS} after a migration that adds or drops a trigger)`, async () => {
    expect(fs.readFileSync(TRIGGERS_PAGE, 'utf8')).toBe(await triggersPage(t.ctx.db));
  });

  it('lists no trigger on the emails table', async () => {
    expect(await triggersPage(t.ctx.db)).not.toMatch(/ ON public\.emails /);
  });
});
