import { generateTokenKeyPair } from '../../auth/token-keys.js';

/** Prints a new token key pair: the secret for GATEHOUSE_PASETO_SECRET_KEY, the public for verifiers. */
export async function keygenCommand(): Promise<void> {
  const { secretKey, publicKey } = await generateTokenKeyPair();
  console.log(`GATEHOUSE_PASETO_SECRET_KEY=${secretKey}`);
  console.log(`# public key (also served at /api/.well-known/paseto-public-key): ${publicKey}`);
}
