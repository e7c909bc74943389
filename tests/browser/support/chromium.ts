import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; `.ci/run` installs it. A missing browser fails the tests, it never skips them. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const SCREENSHOTS = fileURLToPath(new URL('../../../test-artifacts/screenshots/', import.meta.url));

export interface Browser {
  /** One profile: its tabs share localStorage like a person's browser does. */
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium on a fresh profile (`--user-data-dir` in a new temporary folder). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}: run \`apt-get install -y chromium\` (or set CHROMIUM_PATH).`);
  }
  const profile = await mkdtemp(join(tmpdir(), 'gatehouse-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
  });
  // Well under the test timeout, so a missing element fails with its own message.
  context.setDefaultTimeout(10_000);
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Writes `test-artifacts/screenshots/{name}.png`; the folder is ignored by git. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
