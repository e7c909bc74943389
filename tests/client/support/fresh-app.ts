import { vi } from 'vitest';

/**
 * The client as an app loads it at start-up, with nothing configured yet: a fresh copy of its
 * modules, and a renderer whose provider belongs to that copy. configureApi keeps what earlier
 * tests set, so a test of what an app gets by leaving options out starts here.
 */
export async function startFreshApp<Entry>(load: () => Promise<Entry>) {
  vi.resetModules();
  const client = await load();
  const { renderClientHook } = await import('./testbed.js');
  return { client, render: renderClientHook };
}
