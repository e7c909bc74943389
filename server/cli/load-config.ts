import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { ConfigError } from '../errors/config-error.js';
import { parseConfig } from '../config/config-schema.js';
import type { GatehouseConfig } from '../config/gatehouse-config.js';
import { DEMO_CONFIG } from './demo-checkout.js';
import { syntaxErrorLocation } from './syntax-error-location.js';
import { importConfigModule } from './import-config-module.js';
import { esmInCommonJsFile } from './esm-in-commonjs.js';

/** Looked for in the working directory, in this order. */
export const CONFIG_FILES = ['gatehouse.config.ts', 'gatehouse.config.js', 'gatehouse.config.mjs'] as const;

/** `--config <path>` when given (it must exist), else the first config file of the working directory. */
export function findConfigFile(explicit: string | undefined, cwd = process.cwd()): string | undefined {
  if (explicit !== undefined) {
    const path = resolve(cwd, explicit);
    if (!existsSync(path)) throw new ConfigError(`Config file ${explicit} not found.`);
    // Imported, a folder fails with Node's "Directory import ... is not supported" instead.
    if (statSync(path).isDirectory()) throw new ConfigError(`--config ${path} is a folder: name the config file itself (${CONFIG_FILES.join(', ')}).`);
    return path;
  }
  return CONFIG_FILES.map((name) => join(cwd, name)).find((path) => existsSync(path));
}

/**
 * Imports a config file and validates its default export (awaited when it is a promise) with the config schema. Every problem
 * is one ConfigError line naming the file and the key; the migrations and policy tests folders
 * are resolved against the file's own folder (the real one of a symlink, as its imports are).
 */
export async function loadConfigFile(path: string): Promise<GatehouseConfig> {
  let config: unknown;
  try {
    config = await importConfigModule(path);
  } catch (error) {
    throw await loadFailure(path, error);
  }
  if (config === undefined) throw new ConfigError(`Config file ${path} must export its config as default: export default defineConfig({ ... }).`);
  if (typeof config === 'function') throw new ConfigError(`Config file ${path} exports a function: export the config object itself, export default defineConfig({ ... }).`);
  const parsed = parseConfig(config);
  if ('problem' in parsed) throw new ConfigError(`Config file ${path}: ${parsed.problem}.`);
  const besideConfig = (folder: string | undefined) => (folder === undefined || isAbsolute(folder) ? folder : resolve(dirname(realpathSync(path)), folder));
  return { ...parsed.config, migrations: besideConfig(parsed.config.migrations), policyTests: besideConfig(parsed.config.policyTests) };
}

/** The one line a config that failed to load is refused with: the file that is an ES module in a CommonJS package, or that does not parse, else the error's first line. */
async function loadFailure(path: string, error: unknown): Promise<ConfigError> {
  if (error instanceof ConfigError) return error;
  // The config itself, or the file of it at fault.
  const about = (file: string, problem: string) => new ConfigError(file === path ? `Config file ${path} ${problem}` : `Config file ${path} cannot be loaded: ${file} ${problem}`);
  const esm = esmInCommonJsFile(error);
  if (esm !== null) return about(esm, 'uses import/export, but its package is CommonJS: name it .mjs or .ts, or add "type": "module" to its package.json.');
  const syntax = await syntaxErrorLocation(path);
  if (syntax !== null) return about(syntax.file, `has a syntax error at line ${syntax.line}, column ${syntax.column}: ${syntax.text}`);
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new ConfigError(`Config file ${path} cannot be loaded: ${reason}`);
}

/** The application a command works for, and the file it comes from (undefined for the core alone). */
export interface AppConfig {
  file: string | undefined;
  /** Whether the file is the demo, found by default in a checkout. */
  isDemo: boolean;
  config: GatehouseConfig;
}

/**
 * The application every command that reads one works for: `--config`, else the working
 * directory's config file, else in a checkout of Gatehouse the demo, which `npm start` serves
 * there; else (an installed CLI with no config) the core alone, with an empty config.
 */
export async function loadAppConfig(explicit: string | undefined): Promise<AppConfig> {
  const found = findConfigFile(explicit);
  const file = found ?? (existsSync(DEMO_CONFIG) ? DEMO_CONFIG : undefined);
  return { file, isDemo: found === undefined && file !== undefined, config: file === undefined ? {} : await loadConfigFile(file) };
}

/** The config of the application a command works for (see loadAppConfig). */
export const appConfig = async (explicit: string | undefined): Promise<GatehouseConfig> => (await loadAppConfig(explicit)).config;

/** The demo's config (`npm start`, `gatehouse seed --demo`). */
export function demoConfig(): Promise<GatehouseConfig> {
  if (!existsSync(DEMO_CONFIG)) throw new ConfigError('The demo comes with a checkout of the Gatehouse repository only; pass --config <file> for your application.');
  return loadConfigFile(DEMO_CONFIG);
}
