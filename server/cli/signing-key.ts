import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { generateTokenKeyPair } from '../auth/token-keys.js';
import { UsageError } from './usage-error.js';

export const KEY_ENV = 'GATEHOUSE_PASETO_SECRET_KEY';

/**
 * The token signing key: from the environment when set. With the embedded database the CLI
 * generates one on first use and keeps it beside the data, so tokens survive restarts; a service
 * on an external database must be given its key.
 */
export async function signingKey(env: NodeJS.ProcessEnv, home: string, embedded: boolean): Promise<string> {
  const configured = env[KEY_ENV];
  if (configured) return configured;
  if (!embedded) throw new UsageError(`${KEY_ENV}=k4.secret.... gatehouse serve   (\`gatehouse keygen\` prints a new key)`);
  const file = join(home, 'paseto-secret.paserk');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const { secretKey } = await generateTokenKeyPair();
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${secretKey}\n`, { mode: 0o600 });
  return secretKey;
}
