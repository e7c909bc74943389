import { LRUCache } from 'lru-cache';

/** How many memberships the process remembers; the least recently used one goes first. */
const KEPT_MEMBERSHIPS = 10_000;

/**
 * The members each organization's share of the pool counts (`fair-shares.ts`), as the last
 * opening of each caller's request found them: a request counts against the organization its URL
 * names only when its user is known as a member there, so outsiders can never fill a victim's
 * share. The share is taken before the opening answers, so this is the last answer, not this
 * one's: a member's first request (after a start, or once forgotten) counts against their user's
 * share only, and a removed member's one request more against the organization, whose opening
 * then forgets them. Bounded: past its size a member is forgotten as after a start. Route group,
 * slug and user id only.
 */
export class KnownMembers {
  readonly #members = new LRUCache<string, true>({ max: KEPT_MEMBERSHIPS });

  /** Whether the user's last request in this route group found them a member of the organization. */
  has(routeGroup: string, slug: string, userId: number): boolean {
    return this.#members.get(key(routeGroup, slug, userId)) === true;
  }

  /** What an opening found: the user is a member of the organization in this route group, or not (none by that slug). */
  note(routeGroup: string, slug: string, userId: number, member: boolean): void {
    const known = key(routeGroup, slug, userId);
    // A known member is written once, not on each of their requests: `has` already kept them recent.
    if (!member) this.#members.delete(known);
    else if (!this.#members.has(known)) this.#members.set(known, true);
  }
}

// Route group names and slugs are slugs, which hold no NUL: no two triples share a key.
const key = (routeGroup: string, slug: string, userId: number) => `${routeGroup}\0${slug}\0${userId}`;
