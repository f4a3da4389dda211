import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium package (`apt-get install chromium`; .ci/run installs it when missing). */
export const CHROMIUM = '/usr/bin/chromium';

/** Flags for a headless browser on a CI machine without a user namespace sandbox or a GPU. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-gpu',
];

/**
 * Starts Debian's Chromium through playwright-core (no browser download).
 * @throws Error naming the install command when no browser can start: the browser tests fail,
 *   they never skip.
 */
export async function launchChromium(): Promise<Browser> {
  try {
    return await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  } catch (error) {
    throw new Error(
      `Chromium did not start from ${CHROMIUM} (install it: apt-get install -y chromium): ${String(error)}`,
    );
  }
}
