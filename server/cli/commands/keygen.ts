import type { Command } from 'commander';
import type { CliCommand } from '../cli-command.js';
import { KEY_ENV, PREVIOUS_KEYS_ENV } from '../signing-key-variables.js';

/**
 * Prints a new token key pair: the secret for GATEHOUSE_PASETO_SECRET_KEY, the public for
 * verifiers. `--rotate` also prints the previous public keys to keep: the key in use joins them,
 * so tokens it signed stay valid until they expire or it is dropped from the list.
 */
async function keygen(options: { rotate?: boolean }, command: Command): Promise<void> {
  const [{ readEnvironment }, { generateTokenKeyPair, publicPaserkOf }] = await Promise.all([import('../environment.js'), import('../../auth/token-keys.js')]);
  const env = readEnvironment();
  const inUse = env.GATEHOUSE_PASETO_SECRET_KEY;
  if (options.rotate && inUse === undefined) return command.error(`error: --rotate rotates the key in ${KEY_ENV}, which is not set`);
  // The key in use is read before anything is printed: a bad one fails the command without a
  // new secret key on standard output, which may be going into an .env file.
  const previous = options.rotate && inUse !== undefined ? [await publicPaserkOf(inUse), ...(env.GATEHOUSE_PASETO_PREVIOUS_PUBLIC_KEYS ?? [])] : null;
  const { secretKey, publicKey } = await generateTokenKeyPair();
  console.log(`${KEY_ENV}=${secretKey}`);
  if (previous !== null) console.log(`${PREVIOUS_KEYS_ENV}=${[...new Set(previous)].join(',')}`);
  console.log(`# public key (also served at /api/public-key): ${publicKey}`);
}

export const keygenCommand: CliCommand = (program) => {
  program
    .command('keygen')
    .description('Print a new token signing key pair')
    .option('--rotate', `add a key: the one in ${KEY_ENV} moves to ${PREVIOUS_KEYS_ENV}, still verifying its tokens`)
    .action(keygen);
};
