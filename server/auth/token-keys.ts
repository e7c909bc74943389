import { createHash } from 'node:crypto';
import { InspectFooter, PublicProtocol } from 'paseto';
import { footerKeyId, tokenFooter } from '@gatehouse/engine/wire';
import {
  ExportPublicKeyFactory,
  ExportSecretKeyFactory,
  GenerateKeyPairFactory,
  GetPublicKeyFactory,
  ImportPublicKeyFactory,
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
  ImportPublicKeyFactory,
  ExportSecretKeyFactory,
  ExportPublicKeyFactory,
  GetPublicKeyFactory,
);

export type PublicPaserk = `k4.public.${string}`;

/** A key that verifies tokens, published with its id so verifiers pick it by a token's footer. */
export interface VerificationKey {
  id: string;
  publicKey: PublicKey;
  paserk: PublicPaserk;
}

export interface TokenKeys {
  secretKey: SecretKey;
  /** The signing key's public half: published so other services can verify tokens offline. */
  current: VerificationKey;
}

const isSecretPaserk = (value: string): value is `k4.secret.${string}` => value.startsWith('k4.secret.');
const isPublicPaserk = (value: string): value is PublicPaserk => value.startsWith('k4.public.');

/**
 * A key's id: a digest of its PASERK, so every instance and verifier derives the same one. (The
 * PASERK `k4.pid` needs BLAKE2b, which neither Node nor the `paseto` package's v4 provides.)
 */
export const keyId = (paserk: PublicPaserk): string => createHash('sha256').update(paserk).digest('base64url').slice(0, 22);

const verificationKey = async (publicKey: PublicKey): Promise<VerificationKey> => {
  const paserk = await v4.ExportPublicKey(publicKey);
  return { id: keyId(paserk), publicKey, paserk };
};

/** Imports a PASERK `k4.secret` and derives its public half. */
export async function importTokenKeys(secretPaserk: string): Promise<TokenKeys> {
  const trimmed = secretPaserk.trim();
  if (!isSecretPaserk(trimmed)) throw new ConfigError('The token signing key must be a PASERK k4.secret string.');
  try {
    const secretKey = await v4.ImportSecretKey(trimmed);
    return { secretKey, current: await verificationKey(await v4.GetPublicKey(secretKey)) };
  } catch {
    throw new ConfigError('The token signing key is not a valid PASERK k4.secret.');
  }
}

/** Imports a previous key's PASERK `k4.public`, which still verifies the tokens it signed. */
export async function importPreviousKey(publicPaserk: string): Promise<VerificationKey> {
  const trimmed = publicPaserk.trim();
  if (!isPublicPaserk(trimmed)) throw new ConfigError('A previous token key must be a PASERK k4.public string.');
  try {
    return await verificationKey(await v4.ImportPublicKey(trimmed));
  } catch {
    throw new ConfigError('A previous token key is not a valid PASERK k4.public.');
  }
}

/** The public half of a PASERK `k4.secret`, for `gatehouse keygen --rotate`. */
export async function publicPaserkOf(secretPaserk: string): Promise<PublicPaserk> {
  return (await importTokenKeys(secretPaserk)).current.paserk;
}

/** Signs `claims` as a v4.public token whose footer names the signing key: `{"kid": id}`. */
export function signToken(keys: TokenKeys, claims: { sub: string; sid: string; grp: string | null; exp: string }): Promise<string> {
  return v4.Sign(keys.secretKey, claims, { footer: tokenFooter(keys.current.id) });
}

/** The key id a token's footer names, before anything is verified; null when it names none. */
export const tokenKeyId = (token: string): string | null => footerKeyId(() => InspectFooter(token));

/** The claims of a token that `publicKey` verifies; throws for anything else. */
export async function verifyToken(publicKey: PublicKey, token: string, now: Date = new Date()): Promise<Record<string, unknown>> {
  return (await v4.Verify(publicKey, token, { now })).claims;
}

/** A new Ed25519 key pair as PASERK strings. */
export async function generateTokenKeyPair(): Promise<{ secretKey: string; publicKey: PublicPaserk }> {
  const pair = await v4.GenerateKeyPair({ extractable: true });
  return { secretKey: await v4.ExportSecretKey(pair.secretKey), publicKey: await v4.ExportPublicKey(pair.publicKey) };
}
