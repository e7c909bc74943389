import { WILDCARD } from '../wire/wildcard.js';
import type { Permission } from './parse-permission.js';

/** One slug's actions; `{ slug: '*', actions: ['*'] }` is everything, `actions: ['*']` the whole slug. */
export interface PermissionGroup {
  readonly slug: string;
  readonly actions: readonly string[];
}

export const EVERYTHING: PermissionGroup = { slug: WILDCARD, actions: [WILDCARD] };

/** A set of permission patterns, indexed by slug. */
export class PermissionPatterns {
  private readonly actionsBySlug = new Map<string, Set<string>>();

  add({ slug, action }: Permission): void {
    const actions = this.actionsBySlug.get(slug);
    if (actions === undefined) this.actionsBySlug.set(slug, new Set<string>().add(action));
    else actions.add(action);
  }

  get coversEverything(): boolean {
    return this.actionsBySlug.has(WILDCARD);
  }

  /** Whether the set holds `{slug}.*` (or `*`). */
  coversSlug(slug: string): boolean {
    return this.coversEverything || this.actionsBySlug.get(slug)?.has(WILDCARD) === true;
  }

  /** Whether the set holds a pattern covering the whole of `permission` (`posts.*` covers `posts.store`). */
  covers({ slug, action }: Permission): boolean {
    return this.coversSlug(slug) || this.actionsBySlug.get(slug)?.has(action) === true;
  }

  actionsOf(slug: string): ReadonlySet<string> | undefined {
    return this.actionsBySlug.get(slug);
  }

  /** The set by slug, without the patterns a wider one of the set already covers. */
  groups(): PermissionGroup[] {
    if (this.coversEverything) return [EVERYTHING];
    return Array.from(this.actionsBySlug, ([slug, actions]) => ({ slug, actions: actions.has(WILDCARD) ? [WILDCARD] : [...actions] }));
  }
}
