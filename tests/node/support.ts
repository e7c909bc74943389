import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { generateTokenKeyPair, importTokenKeys, signToken, type PublicPaserk } from '../../server/auth/token-keys.js';
import type { TestServer } from '../server/support/test-server.js';
import { instant } from '../server/support/token-claims.js';

/** The API base of a test server, as a service configures `baseURL`. */
export const apiBase = (server: TestServer) => `${server.api.baseUrl.replace(/\/$/, '')}/api`;

/** Grants a member of acme one more permission, as `gatehouse member permissions --grant` does. */
export function grant(server: TestServer, email: string, permission: string) {
  return server.sql('UPDATE user_roles SET granted_permissions = array_append(granted_permissions, $2) WHERE user_id = (SELECT id FROM users WHERE email = $1)', [email, permission]);
}

/** The URL of a listening Node HTTP server. */
export const urlOf = (listening: Server) => `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;

/** A request to a service with a bearer token, answered as status and JSON. */
export async function call(url: string, token: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  return { status: response.status, body: await response.json() };
}

/** The token with one payload byte flipped: still well-formed, no longer genuine. */
export function tampered(token: string): string {
  const parts = token.split('.');
  const payload = Buffer.from(parts[2]!, 'base64url');
  payload[5] = payload[5]! ^ 1;
  parts[2] = payload.toString('base64url');
  return parts.join('.');
}

/**
 * A fresh key pair, as a fake Gatehouse's, and a token it signed for user 7, valid for
 * `validForMs`; `sameSession` is another token of that session, expiring a second later.
 */
export async function signedToken(validForMs: number): Promise<{ publicKey: PublicPaserk; token: string; sameSession: string }> {
  const keys = await generateTokenKeyPair();
  const secret = await importTokenKeys(keys.secretKey);
  const sign = (expiresInMs: number) => signToken(secret, { sub: '7', sid: '5b0c1a2e-1111-4222-8333-444455556666', grp: null, exp: instant(new Date(Date.now() + expiresInMs)) });
  return { publicKey: keys.publicKey, token: await sign(validForMs), sameSession: await sign(validForMs + 1_000) };
}
