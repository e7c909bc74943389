// How the benchmark's minimal servers (bench/http/minimal-endpoint.ts, and PostGraphile's in
// bench/postgraphile/server.ts) decide a request as Gatehouse does: verify the PASETO token
// (remembering verified signatures), open the tenant context with the session, organization and
// membership checks of gatehouse_open_request, then turn its row into a status.
import { importTokenKeys, verifyToken } from '../../server/auth/token-keys.js';

export interface OpeningRow {
  session_valid: boolean;
  organization_id: number | null;
  role_id: number | null;
  role_permissions: string[];
  granted_permissions: string[];
  denied_permissions: string[];
}

export interface Claims {
  userId: number;
  sessionId: string;
  routeGroup: string | null;
}

export const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The claims of an `Authorization: Bearer` header's token, null unless it verifies; each token verified once. */
export async function claimsVerifier(secretKey: string): Promise<(header: string) => Promise<Claims | null>> {
  const { publicKey } = (await importTokenKeys(secretKey)).current;
  const verified = new Map<string, Claims>();
  return async (header) => {
    const token = /^Bearer (\S+)$/.exec(header)?.[1];
    if (!token) return null;
    const known = verified.get(token);
    if (known) return known;
    try {
      const payload = await verifyToken(publicKey, token);
      const claims = { userId: Number(payload.sub), sessionId: String(payload.sid), routeGroup: typeof payload.grp === 'string' ? payload.grp : null };
      if (!Number.isSafeInteger(claims.userId) || !UUID.test(claims.sessionId) || (claims.routeGroup !== null && !SLUG.test(claims.routeGroup))) return null;
      verified.set(token, claims);
      return claims;
    } catch {
      return null;
    }
  };
}

/**
 * The opening as one simple-protocol statement: every value in it has been checked to be exactly
 * a UUID, an id or a slug (the slug by the caller, against SLUG).
 */
export function openingStatement(claims: Claims, slug: string): string {
  const grp = claims.routeGroup === null ? 'NULL' : `'${claims.routeGroup}'`;
  return `SELECT * FROM gatehouse_open_request('${claims.sessionId}', ${claims.userId}, ${grp}, true, 'tenant', '${slug}')`;
}

const allows = (row: OpeningRow, action: string) => {
  const permissions = [...row.role_permissions, ...row.granted_permissions].filter((permission) => !row.denied_permissions.includes(permission));
  return permissions.includes('*') || permissions.includes('posts.*') || permissions.includes(`posts.${action}`);
};

/** The statuses in Gatehouse's order: the session (401), the membership (404), the permission (403); null when the request may go on. */
export const refusalFor = (action: string) => (row: OpeningRow) => (!row.session_valid ? 401 : row.role_id === null ? 404 : allows(row, action) ? null : 403);
