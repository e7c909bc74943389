import { createHash, randomBytes } from 'node:crypto';

/**
 * One-time secrets mailed to users (invitations, password resets). Only the SHA-256 is stored,
 * so a database reader cannot use a pending link; 256 random bits make a slow hash unnecessary.
 */
export function createSecretToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashSecretToken(token) };
}

export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
