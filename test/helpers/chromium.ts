import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/**
 * The Chromium the tests drive: `CHROME_PATH` when set, else Chromium's headless shell
 * (`chromium-headless-shell`, from the same Debian source package and release as `chromium`: the same
 * Blink and V8 under Chromium's headless layer instead of the whole desktop browser), else the full
 * browser.
 *
 * The shell is what playwright itself runs for headless pages. The full browser's headless mode
 * carries the whole desktop browser, and the same demo journeys cost about 70 CPU-s in it
 * against about 43 in the shell (docs/measurements/test-suite-time.md). `scripts/ensure-tools.sh`
 * installs the shell.
 */
const CHROMIUM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string {
  const path = process.env.CHROME_PATH || CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!path) throw new Error('No Chromium found. Install it (on Debian: apt-get install chromium-headless-shell) or set CHROME_PATH.');
  return path;
}

/** That Chromium, headless, through playwright-core. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
  });
}
