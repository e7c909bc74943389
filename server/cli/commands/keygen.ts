import { generateTokenKeyPair } from '../../auth/token-keys.js';
import type { CliCommand } from '../cli-command.js';

/** Prints a new token key pair: the secret for GATEHOUSE_PASETO_SECRET_KEY, the public for verifiers. */
async function keygen(): Promise<void> {
  const { secretKey, publicKey } = await generateTokenKeyPair();
  console.log(`GATEHOUSE_PASETO_SECRET_KEY=${secretKey}`);
  console.log(`# public key (also served at /api/.well-known/paseto-public-key): ${publicKey}`);
}

export const keygenCommand: CliCommand = (program) => {
  program.command('keygen').description('Print a new token signing key pair').action(keygen);
};
