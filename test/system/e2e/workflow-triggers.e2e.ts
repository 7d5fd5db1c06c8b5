/**
 * Segment triggers in the workflow editor, in Chromium: a workflow started by contacts entering a segment is
 * built with a picker that offers only the segments tracking entries and exits, survives a rename untouched,
 * reads by the segment's name in the list, and starts when a contact joins the list. One left on a segment that
 * does not track (saved before triggers needed tracking) says so plainly and keeps its trigger through a rename;
 * saving a trigger on such a segment shows the server's refusal as it is.
 */
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text } from './ui.ts';

/** Renames the open workflow and saves it: the PATCH's body, and the page showing the new name. */
async function renameAndSave(page: Page, id: string, name: string): Promise<unknown> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  const patch = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith(`/workflows/${id}`));
  await page.getByRole('button', { name: 'Save workflow' }).click();
  const body = JSON.parse((await patch).postData() ?? '{}') as unknown;
  await page.getByRole('heading', { level: 1, name }).waitFor();
  return body;
}

describe('segment triggers in the workflow editor, in Chromium', () => {
  let s: SignedIn;
  let trackedId: string;

  beforeAll(async () => {
    s = await startSignedIn('triggers.test');
    trackedId = (await s.api('POST', '/segments', { name: 'Trial users', type: 'STATIC', trackMembership: true })).id;
  });
  afterAll(() => s?.close());

  it(
    'creates a workflow started by entering a tracked segment, keeps the trigger ' +
      'through a rename, and starts it when a contact joins',
    async () => {
      const { page } = s;
      await page.goto(`${s.base}/app/workflows/new`);
      await page.getByRole('heading', { level: 1, name: 'New workflow' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Welcome trial');
      await page.getByLabel('Trigger').selectOption('SEGMENT_ENTERED');
      const segment = page.getByLabel('Segment', { exact: true });
      // Only the tracked segment is offered.
      await until(async () => (await segment.locator('option').count()) === 2, 'the tracked segment offered');
      expect(await segment.locator('option').allTextContents()).toEqual(['Choose a segment…', 'Trial users']);
      expect(await text(page.locator('.field', { has: segment }).locator('.hint'))).toContain(
        'Only segments that track entries and exits are listed.',
      );
      await segment.selectOption(trackedId);
      await page.getByRole('button', { name: 'Create workflow' }).click();
      await page.waitForURL(/\/app\/workflows\/[0-9a-f-]{36}$/);
      const id = page.url().split('/').pop()!;
      expect(await s.api('GET', `/workflows/${id}`)).toMatchObject({
        trigger: { type: 'SEGMENT_ENTERED', segmentId: trackedId },
        version: 1,
      });

      // A rename sends the name only; the trigger stays as it was.
      expect(await renameAndSave(page, id, 'Welcome trial users')).toEqual({ name: 'Welcome trial users' });
      expect(await s.api('GET', `/workflows/${id}`)).toMatchObject({
        name: 'Welcome trial users',
        trigger: { type: 'SEGMENT_ENTERED', segmentId: trackedId },
      });
      await page.reload();
      expect(await page.getByLabel('Trigger').inputValue()).toBe('SEGMENT_ENTERED');
      expect(await page.getByLabel('Segment', { exact: true }).inputValue()).toBe(trackedId);

      await page.getByRole('button', { name: 'Enable' }).click();
      await page.locator('.page-header .badge', { hasText: 'ENABLED' }).waitFor();
      const contact = await s.api('POST', '/contacts', { email: 'trial@dest.test', subscribed: true });
      await s.api('POST', `/segments/${trackedId}/members`, { emails: ['trial@dest.test'] });
      await until(
        async () => (await s.api('GET', `/workflows/${id}/executions`)).items.some((e) => e.contactId === contact.id),
        'an execution for the new member',
        30_000,
      );

      await page.goto(`${s.base}/app/workflows`);
      const row = page
        .locator('table.data-table tbody tr')
        .filter({ has: page.getByRole('link', { name: 'Welcome trial users' }) });
      await row.getByText('enters segment “Trial users”').waitFor();
      expect(s.b.unexpectedErrors()).toEqual([]);
    },
  );

  it(
    'shows a segment-exit trigger on a segment that does not track, says so, keeps it ' +
      'through a rename, and shows the refusal of a new one',
    async () => {
      const untrackedId = (
        await s.api('POST', '/segments', { name: 'Everyone', type: 'STATIC', trackMembership: true })
      ).id;
      const w = await s.api('POST', '/workflows', {
        name: 'Win back',
        trigger: { type: 'SEGMENT_EXITED', segmentId: untrackedId },
        steps: [],
      });
      // What a workflow saved before segment triggers needed tracking left behind (the API now refuses to turn it off).
      await s.t.ctx.db.execute(sql`UPDATE segments SET track_membership = false WHERE id = ${untrackedId}::uuid`);
      const { page } = s;
      await page.goto(`${s.base}/app/workflows/${w.id}`);
      await page.getByRole('heading', { level: 1, name: 'Win back' }).waitFor();
      expect(await page.getByLabel('Trigger').inputValue()).toBe('SEGMENT_EXITED');
      const segment = page.getByLabel('Segment', { exact: true });
      expect(await segment.inputValue()).toBe(untrackedId);
      const warning = page.getByTestId('untracked-segment');
      await warning.waitFor();
      expect(await text(warning)).toBe(
        '“Everyone” does not track entries and exits, so this workflow never starts. Turn ' +
          'on “Track entries and exits” on the segment’s page.',
      );
      expect(await segment.locator('option:checked').textContent()).toBe('Everyone (not tracked)');

      expect(await renameAndSave(page, w.id, 'Win back lapsed')).toEqual({ name: 'Win back lapsed' });
      expect(await s.api('GET', `/workflows/${w.id}`)).toMatchObject({
        name: 'Win back lapsed',
        trigger: { type: 'SEGMENT_EXITED', segmentId: untrackedId },
      });

      // Switching to another kind and back keeps the segment picked.
      await page.getByLabel('Trigger').selectOption('MANUAL');
      await page.getByLabel('Trigger').selectOption('SEGMENT_EXITED');
      expect(await segment.inputValue()).toBe(untrackedId);
      // A new trigger on it is refused by the server (422), and the editor says why, in the server's words.
      await page.getByLabel('Trigger').selectOption('SEGMENT_ENTERED');
      s.b.expectFailedRequest(`/workflows/${w.id}`, 422);
      await page.getByRole('button', { name: 'Save workflow' }).click();
      const refusal = page.locator('form[aria-label="Workflow"] .state-error');
      await refusal.waitFor();
      expect(await text(refusal)).toBe(
        'The segment "Everyone" does not track entries and exits ' +
          '(trackMembership is off), so this trigger would never start the workflow. ' +
          `Turn trackMembership on first: PATCH /segments/${untrackedId} ` +
          `{"trackMembership": true} ("Track entries and exits" on the segment's ` +
          `page).`,
      );
      expect(await s.api('GET', `/workflows/${w.id}`)).toMatchObject({
        trigger: { type: 'SEGMENT_EXITED', segmentId: untrackedId },
      });

      await page.getByRole('link', { name: 'the segment’s page' }).click();
      await page.getByRole('heading', { level: 1, name: 'Everyone' }).waitFor();
      await page.goto(`${s.base}/app/workflows`);
      const row = page
        .locator('table.data-table tbody tr')
        .filter({ has: page.getByRole('link', { name: 'Win back lapsed' }) });
      await row.getByText('leaves segment “Everyone”').waitFor();
      expect(s.b.unexpectedErrors()).toEqual([]);
    },
  );
});
