/**
 * Debian's Chromium driven by playwright-core (no browser download): a fresh profile per run, and every
 * page error and console error collected, so a test can assert that a whole run had none. Chromium reports
 * each Content-Security-Policy violation as a console error, in any frame (the template preview's sandboxed
 * srcdoc frame included; an init script could not listen there, as the frame runs none), so violations are
 * among them, marked `csp:`.
 *
 *   const b = await startBrowser();
 *   const page = b.page;  …
 *   b.expectFailedRequest('/contacts', 401);   // an error the step provokes on purpose (a wrong key)
 *   expect(b.unexpectedErrors()).toEqual([]);
 *   await b.close();
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Flags this machine needs: no sandbox as root, and no background traffic to Google's hosts (no network).
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** Declares that the next step makes the browser log one failed request (URL part, status). */
  expectFailedRequest(urlPart: string, status: number): void;
  /** Page errors, console errors and failed requests nobody declared, in the order they came. */
  unexpectedErrors(): string[];
  close(): Promise<void>;
}

/**
 * `origin` is granted the clipboard; `timezoneId` (an IANA zone) is the browser's time zone, the machine's unless told.
 */
export async function startBrowser(options: { origin: string; timezoneId?: string }): Promise<TestBrowser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: install Debian's (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: options.origin });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  const expected: { urlPart: string; status: number }[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const failed = /status of (\d{3})/.exec(message.text());
    const url = message.location().url;
    const i = failed ? expected.findIndex((e) => url.includes(e.urlPart) && e.status === Number(failed[1])) : -1;
    if (i >= 0) expected.splice(i, 1);
    else
      errors.push(`${/Content Security Policy/i.test(message.text()) ? 'csp' : 'console'}: ${message.text()} (${url})`);
  });
  return {
    context,
    page,
    expectFailedRequest: (urlPart, status) => expected.push({ urlPart, status }),
    unexpectedErrors: () => [
      ...errors,
      ...expected.map((e) => `expected a failed request ${e.status} ${e.urlPart} that never came`),
    ],
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Widest content of the page in CSS pixels: more than the viewport means horizontal scrolling. */
export async function scrollWidth(page: Page): Promise<number> {
  return page.evaluate('Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)') as Promise<number>;
}

/** Visible form controls without an accessible name (label, aria-label or aria-labelledby). */
export async function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll('input, select, textarea')]
    .filter((el) => el.type !== 'hidden' && el.offsetParent !== null)
    .filter((el) => !el.labels?.length && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
    .map((el) => el.outerHTML.slice(0, 120))`) as Promise<string[]>;
}
