import type { GatehouseAbility } from '../ability/gatehouse-ability.js';

/** The caller as a policy sees it; the server passes its user record, which has more fields. */
export interface PolicyUser {
  readonly id: number | string;
}

export interface OrganizationRef {
  readonly id: number;
  readonly slug: string;
}

/** An organization by reference, by id or by slug. */
export type OrganizationKey = OrganizationRef | number | string;

/** Everything a policy knows about the request it is bound to. */
export interface PolicyContext {
  readonly user: PolicyUser | null;
  /** The caller's effective permissions in the current organization (or route group). */
  readonly ability: GatehouseAbility;
  /** The caller's role slug in the current organization, from the membership, never the request. */
  readonly role: string | null;
  readonly organization: OrganizationRef | null;
  readonly routeGroup: string | null;
  /**
   * A record check already decided elsewhere (the server decides record conditions in SQL, where
   * a condition's relations are): true or false for `action` on `record`, undefined to check the
   * record against the ability's conditions in memory.
   */
  readonly recordVerdict?: (slug: string, action: string, record: object) => boolean | undefined;
  /** The caller's abilities in other organizations, for `hasPermission(permission, org)`. */
  readonly permissionsFor?: (organization: OrganizationKey) => GatehouseAbility | undefined;
}
