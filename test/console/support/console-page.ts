import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { OUTPUT_DIR } from './build-console.js';

/** A browser tab on the console with what it logged: CSP violations and failed requests. */
export interface ConsoleTab {
  readonly page: Page;
  /** Uncaught page errors and Content-Security-Policy violations (refused requests are not errors). */
  readonly errors: string[];
  /** Headers of every request the page sent to a `…/changes` feed, in order. */
  readonly feedRequests: Record<string, string>[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** Opens `/console/` of the ledger at `url` in a fresh context and signs in with `token`. */
export async function openConsole(browser: Browser, url: string, token: string): Promise<ConsoleTab> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  const feedRequests: Record<string, string>[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    if (r.url().includes('/changes')) feedRequests.push(r.headers());
  });
  await page.goto(`${url}/console/`);
  await page.getByTestId('token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('who').waitFor();
  return {
    page,
    errors,
    feedRequests,
    async screenshot(name) {
      const path = join(OUTPUT_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    close: () => context.close(),
  };
}

/** Writes a measurement (JSON) next to the screenshots. */
export function writeMeasurement(name: string, value: unknown): void {
  writeFileSync(join(OUTPUT_DIR, `${name}.json`), JSON.stringify(value, null, 2) + '\n');
}
