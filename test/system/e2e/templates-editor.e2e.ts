/**
 * The template editor in Chromium: a template built in the block editor (palette, a column's own blocks, reorder
 * with the buttons and with dnd-kit's keyboard dragging, undo and redo), previewed side by side at desktop and
 * phone width, published after its draft's changes are shown, compared and restored from its versions, and
 * translated; a layout made, chosen and refused deletion while in use; a campaign started from the template.
 */
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { screenshotDir, text, ui } from './ui.ts';

/** The types of the blocks of a list, in order. */
const typesIn = (list: Locator) =>
  list
    .locator(':scope > li')
    .evaluateAll((items) =>
      items.map((li) => (li as unknown as { dataset: { blockType?: string } }).dataset.blockType),
    );

/** A block of the top list, by its place (1-based). */
const block = (page: Page, n: number) => page.locator('ul[aria-label="Blocks"] > li').nth(n - 1);

describe('the template editor in Chromium', () => {
  let s: SignedIn;
  let page: Page;
  let templateId = '';

  beforeAll(async () => {
    s = await startSignedIn('tpl.test');
    page = s.page;
    await s.api('POST', '/contacts', { email: 'dee@tpl.test', data: { firstName: 'Dee' }, subscribed: true });
  });
  afterAll(() => s?.close());

  /** A screenshot of one part of the page, for the docs (E2E_SCREENSHOTS_DIR). */
  const shoot = async (part: Locator, name: string) => {
    await part.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0); // no hover left where the page scrolled
    await part.screenshot({ path: path.join(screenshotDir, `${name}.png`), animations: 'disabled' });
  };

  it('builds a template of blocks: palette, columns, reorder by button and keyboard, undo and redo', async () => {
    await page.goto(`${s.base}/app/templates/new`);
    await page.getByLabel('Name', { exact: true }).fill('Spring news');
    await page.getByLabel('From address').fill('news@tpl.test');
    await page.getByRole('radio', { name: /^Blocks/ }).check();
    await page.getByLabel('Subject').fill('Spring for {{ firstName }}');
    const blocks = page.locator('ul[aria-label="Blocks"]');
    expect(await typesIn(blocks)).toEqual(['text']); // a new document starts with a greeting

    await page.getByRole('button', { name: 'Add heading' }).click();
    await page.getByLabel('Heading text').fill('Spring launch');
    await page.getByRole('button', { name: 'Add button' }).click(); // after the selected heading
    await page.getByLabel('Button text').fill('Read more');
    await page.getByLabel('Link (URL)').fill('https://tpl.test/spring');
    await page.getByRole('button', { name: 'Add columns' }).click();
    const columns = block(page, 4);
    await columns.getByLabel('Block type for column 1').selectOption('text');
    await columns.getByRole('button', { name: 'Add to column 1' }).click();
    await columns.getByLabel('Block type for column 2').selectOption('button');
    await columns.getByRole('button', { name: 'Add to column 2' }).click();
    expect(await typesIn(blocks)).toEqual(['text', 'heading', 'button', 'columns']);
    expect(await typesIn(columns.getByRole('list', { name: 'Column 1 blocks' }))).toEqual(['text']);
    expect(await typesIn(columns.getByRole('list', { name: 'Column 2 blocks' }))).toEqual(['button']);

    // Reorder with the buttons: the heading goes first, and keeps the keyboard.
    await block(page, 2)
      .getByRole('button', { name: /^Heading/ })
      .click();
    await block(page, 2).getByRole('button', { name: 'Move block up' }).click();
    expect(await typesIn(blocks)).toEqual(['heading', 'text', 'button', 'columns']);
    // At the top it can move up no more: the keyboard stays on the block.
    expect(await page.evaluate("document.activeElement?.closest('li')?.dataset.blockType")).toBe('heading');

    // Reorder with dnd-kit's keyboard dragging: Space picks the button up, ArrowUp moves it, Space drops it.
    await page.getByRole('button', { name: 'Drag button block 3' }).focus();
    await page.keyboard.press('Space');
    await page.waitForTimeout(150);
    await page.keyboard.press('ArrowUp');
    await page.waitForTimeout(300);
    await page.keyboard.press('Space');
    await until(async () => (await typesIn(blocks)).join() === 'heading,button,text,columns', 'the button moved up');

    // Undo takes the last change back (Ctrl+Z), redo makes it again; the Undo button too.
    await page.keyboard.press('Control+z');
    await until(async () => (await typesIn(blocks)).join() === 'heading,text,button,columns', 'the move undone');
    await page.keyboard.press('Control+Shift+z');
    await until(async () => (await typesIn(blocks)).join() === 'heading,button,text,columns', 'the move redone');
    await page.getByRole('button', { name: 'Add divider' }).click();
    expect(await blocks.locator(':scope > li[data-block-type="divider"]').count()).toBe(1);
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    expect(await blocks.locator(':scope > li[data-block-type="divider"]').count()).toBe(0);
    expect(await typesIn(blocks)).toEqual(['heading', 'button', 'text', 'columns']);

    // The live preview renders it at both widths, side by side; the phone one is 375 px wide.
    const phone = page.locator('iframe[title="Rendered HTML, phone width"]');
    await page.frameLocator('iframe[title="Rendered HTML, phone width"]').getByText('Spring launch').waitFor();
    await page.getByTestId('preview-subject').filter({ hasText: 'Spring for Ada' }).waitFor();
    // Read together, once all four are laid out (a preview frame is replaced while a newer render arrives).
    const layout = async () => {
      const boxes = await Promise.all(
        [
          phone,
          page.locator('iframe[title="Rendered HTML"]'),
          page.locator('.device-desktop'),
          page.locator('.device-phone'),
        ].map((l) => l.boundingBox()),
      );
      return boxes.every((b) => b !== null) ? boxes.map((b) => b!) : null;
    };
    let boxes: Awaited<ReturnType<typeof layout>> = null;
    await until(async () => (boxes = await layout()) !== null, 'the previews laid out');
    const [right, desktop, left, phoneDevice] = boxes!;
    expect(right!.width).toBe(375);
    expect(left!.y).toBe(phoneDevice!.y); // beside each other
    expect(left!.x + left!.width).toBeLessThan(right!.x);
    expect(desktop!.width).toBeGreaterThan(375);

    await page.getByRole('button', { name: 'Create template' }).click();
    await page.waitForURL(/\/app\/templates\/[0-9a-f-]{36}$/);
    templateId = page.url().split('/').pop()!;
    await page.getByTestId('publish-state').filter({ hasText: 'Version 1 is live' }).waitFor();
    const saved = await s.api('GET', `/templates/${templateId}`);
    expect(saved).toMatchObject({ format: 'blocks', version: 1, hasUnpublishedChanges: false });
    const doc = saved.content as { blocks: { type: string }[] };
    expect(doc.blocks.map((b) => b.type)).toEqual(['heading', 'button', 'text', 'columns']);

    await block(page, 1)
      .getByRole('button', { name: /^Heading/ })
      .click();
    await ui(page).checkPage('template block editor');
    await shoot(page.locator('.block-editor'), 'templates-block-editor');
    // At phone width nothing scrolls sideways: the editor's parts stack.
    await page.setViewportSize({ width: 390, height: 800 });
    await ui(page).checkPage('template block editor on a phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('shows a field the server refuses next to it: a block whose URL is not one', async () => {
    await block(page, 2)
      .getByRole('button', { name: /^Button/ })
      .click();
    s.b.expectFailedRequest('/templates/preview', 422);
    await page.getByLabel('Link (URL)').fill('javascript:alert(1)');
    const problem = page.locator('.block-settings .field-error').first();
    await problem.filter({ hasText: /http\(s\) or mailto/ }).waitFor();
    await block(page, 2).locator('.field-error').waitFor(); // the block is marked in the list too
    await page.getByLabel('Link (URL)').fill('https://tpl.test/spring');
    await problem.waitFor({ state: 'detached' });
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('saves a draft, shows its changes before publishing, compares versions and restores one', async () => {
    await block(page, 1)
      .getByRole('button', { name: /^Heading/ })
      .click();
    await page.getByLabel('Heading text').fill('Spring launch, now open');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByTestId('unpublished-changes').waitFor();
    // What the server answered is what the editor holds: nothing is left unsaved.
    await page.getByRole('status').filter({ hasText: 'Saved as a draft' }).waitFor();
    expect(await page.getByText('Unsaved changes').count()).toBe(0);
    expect((await s.api('GET', `/templates/${templateId}`)).version).toBe(1);

    await page.getByRole('button', { name: 'Publish…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Publish version 2?' });
    await dialog.locator('ins').filter({ hasText: 'Spring launch, now open' }).waitFor();
    await dialog.locator('del').filter({ hasText: '"text": "Spring launch"' }).waitFor();
    await dialog.getByRole('button', { name: 'Yes, publish' }).click();
    await page.getByTestId('publish-state').filter({ hasText: 'Version 2 is live' }).waitFor();
    expect(await page.getByTestId('unpublished-changes').count()).toBe(0);

    const versions = page.getByRole('table', { name: 'Versions' });
    await until(async () => (await versions.locator('tbody tr').count()) === 2, 'two versions');
    await page.getByLabel('Compare version 1').check();
    await page.getByLabel('Compare version 2').check();
    const diff = page.locator('.versions .text-diff');
    await diff.getByText('Version 1 → version 2').waitFor();
    expect(await text(diff.locator('ins').first())).toContain('Spring launch, now open');
    await shoot(page.locator('section.versions'), 'templates-versions');

    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByTestId('unpublished-changes').waitFor(); // version 1's content is the draft again
    await until(async () => (await versions.locator('tbody tr').count()) === 3, 'the draft listed');
    await versions.locator('tr[data-version="3"]').getByText('Draft').waitFor();
    await block(page, 1)
      .getByRole('button', { name: /^Heading/ })
      .click();
    expect(await page.getByLabel('Heading text').inputValue()).toBe('Spring launch');
    const template = await s.api('GET', `/templates/${templateId}`);
    expect(template).toMatchObject({ version: 2, hasUnpublishedChanges: true, draft: { version: 3 } });
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('adds a translation with its own subject, previews it, and saves it in the draft', async () => {
    await page.getByLabel('Language tag').fill('de');
    await page.getByRole('button', { name: 'Add translation' }).click();
    await page.getByRole('tab', { name: 'de', selected: true }).waitFor();
    await page.getByLabel('Subject (de)').fill('Frühling für {{ firstName }}');
    await page.getByText('This translation uses the default content.').waitFor();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await page.getByTestId('preview-subject').filter({ hasText: 'Frühling für Ada' }).waitFor();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await until(
      async () =>
        ((await s.api('GET', `/templates/${templateId}`)).draft as { translations?: Record<string, unknown> } | null)
          ?.translations?.de,
      'the translation saved',
    );
    const draft = (await s.api('GET', `/templates/${templateId}`)).draft as { translations: unknown };
    expect(draft.translations).toEqual({ de: { subject: 'Frühling für {{ firstName }}' } });
    // The default's tab still holds the default subject.
    await page.getByRole('tab', { name: 'Default' }).click();
    expect(await page.getByLabel('Subject', { exact: true }).inputValue()).toBe('Spring for {{ firstName }}');
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('makes a layout, chooses it for the template, and refuses to delete it while in use', async () => {
    await ui(page).nav('Layouts');
    await page.getByRole('link', { name: 'New layout' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Brand frame');
    await page.getByRole('button', { name: 'Create layout' }).click();
    await page.waitForURL(/\/app\/layouts\/[0-9a-f-]{36}$/);
    const layoutId = page.url().split('/').pop()!;
    await page.getByRole('button', { name: 'Make default' }).click();
    await page.locator('.page-header .badge').filter({ hasText: 'Default' }).waitFor();

    await page.goto(`${s.base}/app/templates/${templateId}`);
    await page.getByLabel('Layout').selectOption(layoutId);
    await page.frameLocator('iframe[title="Rendered HTML"]').getByText('Sent by Acme').waitFor();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await page.getByRole('button', { name: 'Publish…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Publish version 3?' });
    await dialog
      .locator('ins')
      .filter({ hasText: `Layout: ${layoutId}` })
      .waitFor();
    await dialog.getByRole('button', { name: 'Yes, publish' }).click();
    await page.getByTestId('publish-state').filter({ hasText: 'Version 3 is live' }).waitFor();

    // Refused while it is the default, then while the template uses it: the message says why.
    await page.goto(`${s.base}/app/layouts/${layoutId}`);
    const remove = async (why: string | RegExp) => {
      s.b.expectFailedRequest(`/layouts/${layoutId}`, 409);
      await page.getByRole('button', { name: 'Delete layout' }).click();
      await page.getByRole('button', { name: 'Yes, delete layout' }).click();
      await page.getByRole('alert').filter({ hasText: why }).waitFor();
    };
    await remove("project's default layout");
    await page.getByRole('button', { name: 'Stop using as default' }).click();
    await page.getByRole('button', { name: 'Make default' }).waitFor();
    await remove('template Spring news');
    expect(await s.api('GET', `/layouts/${layoutId}`)).toMatchObject({ isDefault: false });
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('starts a campaign from the template and previews it before sending', async () => {
    await page.goto(`${s.base}/app/campaigns/new`);
    await page.getByLabel('Start from a template').selectOption(templateId);
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Spring news');
    expect(await page.getByLabel('From address').inputValue()).toBe('news@tpl.test');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/\/app\/campaigns\/[0-9a-f-]{36}$/);
    await page.getByTestId('template-origin').filter({ hasText: 'From template Spring news, version 3' }).waitFor();
    const campaign = await s.api('GET', `/campaigns/${page.url().split('/').pop()}`);
    expect(campaign).toMatchObject({ templateId, templateVersion: 3, format: 'blocks' });
    const preview = page.getByRole('region', { name: 'Rendered preview, as saved' });
    await preview.frameLocator('iframe[title="Rendered HTML, phone width"]').getByText('Spring launch').waitFor();
    await preview.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await preview.getByTestId('preview-subject').filter({ hasText: 'Frühling für' }).waitFor();
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('writes MJML with a live preview, and names the line of a mistake with a way to it', async () => {
    await page.goto(`${s.base}/app/templates/new`);
    await page.getByRole('radio', { name: /^MJML/ }).check();
    await page.getByLabel('Subject').fill('Hello');
    const mjml = page.getByLabel('MJML', { exact: true });
    await page.frameLocator('iframe[title="Rendered HTML"]').getByText('Hello Ada,').waitFor();
    s.b.expectFailedRequest('/templates/preview', 422);
    await mjml.fill('<mjml>\n<mj-body>\n<mj-column><mj-text>x</mj-text></mj-column>\n</mj-body>\n</mjml>');
    const problems = page.locator('.mjml-problems');
    await problems.getByText(/^line 3: mj-column cannot be used inside mj-body/).waitFor();
    await problems.getByRole('button', { name: 'Go to line 3' }).click();
    const selected = await mjml.evaluate((el) => {
      const area = el as unknown as { value: string; selectionStart: number; selectionEnd: number };
      return area.value.slice(area.selectionStart, area.selectionEnd);
    });
    expect(selected).toBe('<mj-column><mj-text>x</mj-text></mj-column>');
    await page.getByText('Line 3, column 1.').waitFor();
    await mjml.fill(
      '<mjml>\n<mj-body>\n<mj-section><mj-column><mj-text>Fixed</mj-text></mj-column></mj-section>\n' +
        '</mj-body>\n</mjml>',
    );
    await problems.waitFor({ state: 'detached' });
    await page.frameLocator('iframe[title="Rendered HTML"]').getByText('Fixed').waitFor();
    expect(await problems.count()).toBe(0);
    expect(s.b.unexpectedErrors()).toEqual([]);
  });
});
