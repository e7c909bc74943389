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
import { ConfigError } from '../config/config-error.js';

export const v4 = new PublicProtocol(
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

/** A new Ed25519 key pair as PASERK strings. */
export async function generateTokenKeyPair(): Promise<{ secretKey: string; publicKey: PublicPaserk }> {
  const pair = await v4.GenerateKeyPair({ extractable: true });
  return { secretKey: await v4.ExportSecretKey(pair.secretKey), publicKey: await v4.ExportPublicKey(pair.publicKey) };
}
