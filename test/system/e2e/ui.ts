/** Small helpers the end-to-end flow drives the dashboard with: navigation, page checks, screenshots. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { scrollWidth, unlabelledControls } from './browser.ts';
import { CRAMPED, SPLIT_WORDS } from './look.ts';

/** Where screenshots go: E2E_SCREENSHOTS_DIR (docs/screenshots for the README), else a temporary folder. */
export const screenshotDir = process.env.E2E_SCREENSHOTS_DIR
  ? path.resolve(process.env.E2E_SCREENSHOTS_DIR)
  : fs.mkdtempSync(path.join(os.tmpdir(), 'herald-shots-'));

export function ui(page: Page) {
  return {
    /** Follows a link of the main navigation and waits for the page's heading. */
    async nav(label: string, heading = label) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
    },
    heading: (name: string | RegExp) => page.getByRole('heading', { level: 1, name }),
    /** Every visible form control has a label; at phone width nothing scrolls sideways. */
    async checkPage(where: string) {
      expect(await unlabelledControls(page), `unlabelled controls on ${where}`).toEqual([]);
      const width = page.viewportSize()!.width;
      expect(await scrollWidth(page), `page width on ${where} at ${width}px`).toBeLessThanOrEqual(width);
    },
    /** The checks of checkPage, and no word split across lines, no select or button squeezed (look.ts). */
    async checkLook(where: string) {
      await this.checkPage(where);
      const width = page.viewportSize()!.width;
      expect(await page.evaluate(SPLIT_WORDS), `words split on ${where} at ${width}px`).toEqual([]);
      expect(await page.evaluate(CRAMPED), `squeezed controls on ${where} at ${width}px`).toEqual([]);
    },
    async screenshot(name: string) {
      fs.mkdirSync(screenshotDir, { recursive: true });
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), animations: 'disabled' });
    },
  };
}

/** Removes the screenshots of a run that was not asked to keep them. */
export function dropTemporaryScreenshots(): void {
  if (!process.env.E2E_SCREENSHOTS_DIR) fs.rmSync(screenshotDir, { recursive: true, force: true });
}

/** The text of a locator, trimmed ('' when it has none). */
export async function text(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').trim();
}

/** A TXT value as DNS carries it: strings of at most 255 characters. */
export function txtStrings(value: string): string[] {
  const parts: string[] = [];
  for (let i = 0; i < value.length; i += 255) parts.push(value.slice(i, i + 255));
  return parts;
}
