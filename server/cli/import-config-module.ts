import { setImmediate } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { prepareImport } from './typescript-loader.js';

/** Node's advice when a CommonJS file holds import or export: the caller's line says it for the file concerned. */
const ESM_IN_COMMONJS_WARNING = 'To load an ES module';

/**
 * Imports a config file and awaits its default export. Every failure is the one rejection of
 * the returned promise, and nothing is printed meanwhile: a promise default export is awaited at
 * once; a rejection nothing handles while the config loads (Node's loader leaves a second one
 * unawaited when a CommonJS file the config requires fails to parse) is taken as the failure,
 * where Node would end the process with a stack trace; Node's warning for a CommonJS file with
 * import/export is left out, as the caller's line explains it.
 */
export async function importConfigModule(path: string): Promise<unknown> {
  const unhandled: unknown[] = [];
  const collect = (reason: unknown) => void unhandled.push(reason);
  const warningListeners = process.listeners('warning');
  const forward = (warning: Error) => {
    if (!warning.message.startsWith(ESM_IN_COMMONJS_WARNING)) for (const listener of warningListeners) listener(warning);
  };
  process.removeAllListeners('warning').on('warning', forward);
  process.on('unhandledRejection', collect);
  const loading = (async () => {
    await prepareImport(path);
    const imported = (await import(pathToFileURL(path).href)) as { default?: unknown };
    return (await imported.default) as unknown;
  })();
  try {
    const value = await loading.finally(() => setImmediate());
    if (unhandled.length > 0) throw unhandled[0];
    return value;
  } finally {
    process.off('unhandledRejection', collect);
    process.off('warning', forward);
    for (const listener of warningListeners) process.on('warning', listener);
  }
}
