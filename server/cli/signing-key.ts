import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { generateTokenKeyPair } from '../auth/token-keys.js';
import { ConfigError } from '../errors/config-error.js';
import type { Environment } from './environment.js';
import { gatehouseHome } from './gatehouse-home.js';
import { KEY_ENV } from './signing-key-variables.js';
import { gatehouseCommand } from '../errors/gatehouse-command.js';

/**
 * The token signing key: from the environment when set. Outside production, where a development
 * key is allowed (the demo of `gatehouse start`, the embedded database), one is generated on first
 * use and kept under GATEHOUSE_HOME, so tokens survive restarts; anything else must be given its key.
 */
export async function signingKey(env: Environment, developmentKeyAllowed: boolean): Promise<string> {
  if (env.GATEHOUSE_PASETO_SECRET_KEY) return env.GATEHOUSE_PASETO_SECRET_KEY;
  const production = env.NODE_ENV === 'production';
  if (!developmentKeyAllowed || production) {
    throw new ConfigError(`${KEY_ENV} is required${production ? ' in production' : ' by `gatehouse serve`'}: \`${gatehouseCommand('keygen')}\` prints a new key.`);
  }
  const file = join(gatehouseHome(env), 'paseto-secret.paserk');
  if (existsSync(file)) {
    console.log(`Using the development signing key in ${file} (set ${KEY_ENV} in production).`);
    return (await readFile(file, 'utf8')).trim();
  }
  const { secretKey } = await generateTokenKeyPair();
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${secretKey}\n`, { mode: 0o600 });
  console.log(`Generated a development signing key in ${file} (set ${KEY_ENV} in production).`);
  return secretKey;
}
