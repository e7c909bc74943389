import { createRequire } from 'node:module';

// By package name, so the sources and the build (dist/) find the same file.
const { version } = createRequire(import.meta.url)('@gatehouse/server/package.json') as { version: string };

/** The server package's version: the CLI's `--version` and the OpenAPI document's `info.version`. */
export const SERVER_VERSION = version;
