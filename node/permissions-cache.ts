import { GatehouseError } from './errors.js';
import type { HttpClient } from './http-client.js';

/** `GET {t}/user-role`: what the caller holds in one organization. */
export interface Permissions {
  role: string | null;
  /** Effective permissions; a leading `!` marks a denial. */
  permissions: string[];
  /** Per model, the model-level actions (index, store, trashed) as Gatehouse's policies decide them. */
  abilities: Record<string, Record<string, boolean>>;
  /** Packed CASL rules, for record conditions. */
  rules: unknown[];
  organization: { id: number; slug: string } | null;
}

interface Entry {
  etag: string | undefined;
  answer: Permissions;
  checkedAt: number;
}

// Sessions times organizations a service keeps answers for; the oldest make room for new ones.
const KEPT = 10_000;

/**
 * Permissions answers kept per session and organization and revalidated by ETag: within `maxAge`
 * seconds of the last check an answer is used as is, after it Gatehouse is asked again with
 * `If-None-Match` (a 304 costs no body). So a revocation or a permission change reaches a cached
 * answer within `maxAge`; with 0, every call asks.
 */
export class PermissionsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly http: HttpClient) {}

  async get(token: string, sessionId: string, tenantPath: string, maxAgeMs: number): Promise<Permissions> {
    const key = `${sessionId} ${tenantPath}`;
    const kept = this.entries.get(key);
    if (kept && Date.now() - kept.checkedAt < maxAgeMs) return kept.answer;
    this.entries.delete(key);
    const response = await this.http.json({ method: 'GET', path: `${tenantPath}/user-role`, token, ifNoneMatch: kept?.etag });
    if (response.status === 304 && !kept) throw new GatehouseError(304, 'Gatehouse answered 304 to a request without an ETag.');
    const entry = { etag: response.etag, answer: response.status === 304 ? kept!.answer : (response.body as Permissions), checkedAt: Date.now() };
    if (this.entries.size >= KEPT) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
    return entry.answer;
  }
}
