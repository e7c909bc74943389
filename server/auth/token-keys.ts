import { PublicProtocol } from 'paseto';
import {
  ExportPublicKeyFactory,
  ExportSecretKeyFactory,
  GenerateKeyPairFactory,
  GetPublicKeyFactory,
  ImportSecretKeyFactory,
  SignFactory,
  VerifyFactory,
  type PublicKey,
  type SecretKey,
} from 'paseto/v4/public';
import { ConfigError } from '../errors/config-error.js';

// Private: its inferred type is paseto's whole generic protocol, hundreds of KB as a declaration.
const v4 = new PublicProtocol(
  GenerateKeyPairFactory,
  SignFactory,
  VerifyFactory,
  ImportSecretKeyFactory,
  ExportSecretKeyFactory,
  ExportPublicKeyFactory,
  GetPublicKeyFactory,
);

export type PublicPaserk = `k4.public.${string}`;

export interface TokenKeys {
  secretKey: SecretKey;
  publicKey: PublicKey;
  /** Published so other services can verify tokens offline. */
  publicPaserk: PublicPaserk;
}

const isSecretPaserk = (value: string): value is `k4.secret.${string}` => value.startsWith('k4.secret.');

/** Imports a PASERK `k4.secret` and derives its public half. */
export async function importTokenKeys(secretPaserk: string): Promise<TokenKeys> {
  const trimmed = secretPaserk.trim();
  if (!isSecretPaserk(trimmed)) throw new ConfigError('The token signing key must be a PASERK k4.secret string.');
  try {
    const secretKey = await v4.ImportSecretKey(trimmed);
    const publicKey = await v4.GetPublicKey(secretKey);
    return { secretKey, publicKey, publicPaserk: await v4.ExportPublicKey(publicKey) };
  } catch {
    throw new ConfigError('The token signing key is not a valid PASERK k4.secret.');
  }
}

/** Signs `claims` as a v4.public token. */
export function signToken(secretKey: SecretKey, claims: { sub: string; sid: string; grp: string | null; exp: string }): Promise<string> {
  return v4.Sign(secretKey, claims);
}

/** The claims of a token that `publicKey` verifies; throws for anything else. */
export async function verifyToken(publicKey: PublicKey, token: string): Promise<Record<string, unknown>> {
  return (await v4.Verify(publicKey, token)).claims;
}

/** A new Ed25519 key pair as PASERK strings. */
export async function generateTokenKeyPair(): Promise<{ secretKey: string; publicKey: PublicPaserk }> {
  const pair = await v4.GenerateKeyPair({ extractable: true });
  return { secretKey: await v4.ExportSecretKey(pair.secretKey), publicKey: await v4.ExportPublicKey(pair.publicKey) };
}
