import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

// The demo application comes with a checkout of the repository only: the published package
// carries none of it, so the CLI finds its files by path instead of importing them. In a checkout
// the server package's folder sits in the repository's root.
const CHECKOUT = join(dirname(createRequire(import.meta.url).resolve('@gatehouse/server/package.json')), '..');

export const DEMO_CONFIG = join(CHECKOUT, 'policies', 'gatehouse.config.ts');
const DEMO_BANNER = join(CHECKOUT, 'policies', 'demo-banner.ts');
// `npm start` builds it first (the `prestart` script).
const DEMO_WEB_ROOT = join(CHECKOUT, 'web', 'dist');

/** The demo web app's built folder, when it has been built. */
export function demoWebRoot(): string | undefined {
  return existsSync(join(DEMO_WEB_ROOT, 'index.html')) ? `${DEMO_WEB_ROOT}/` : undefined;
}

/** The demo's own lines of the start banner (its logins, a first request). */
export async function demoIntroduction(url: string): Promise<string[]> {
  const banner = (await import(pathToFileURL(DEMO_BANNER).href)) as { demoIntroduction(url: string): string[] };
  return banner.demoIntroduction(url);
}
