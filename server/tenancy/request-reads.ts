import type { ReadAhead } from '../db/transactions/read-ahead.js';
import type { GatehouseContext, GroupState } from '../http/state.js';
import type { RouteGroup } from '../models/route-group.js';
import type { AccessPlans } from '../data/record-access.js';

/** Who asks, as far as is known before the opening answers: the token's user in the request's route group, and the organization it addresses. */
export interface ReadingCaller {
  userId: number;
  group: RouteGroup;
  /** The slug the request addresses, before the opening has found it; null outside tenancy. */
  organizationSlug: string | null;
  /**
   * The organization's id as far as it is known: null outside tenancy, the id the slug named the
   * last time where it has one (`organization-ids.ts`; the opening checks it), else undefined. A
   * statement whose SQL depends on it is planned only when it is not undefined.
   */
  organizationId: number | null | undefined;
  /**
   * The plans of the record conditions its permissions held the last time (`access-guesses.ts`;
   * the opening checks them), which its statements add; undefined where it held none.
   */
  plans: AccessPlans | undefined;
}

/**
 * What a request's route is going to read, from the request alone (path, query string, headers)
 * and its caller's claims: sent with the transaction's opening, so a read takes one round trip.
 * Null when the request cannot be planned ahead (a write, a query string its handler will refuse,
 * a statement that depends on what the opening learns); it then reads as it goes.
 */
export type RequestReads = (ctx: GatehouseContext<GroupState>, caller: ReadingCaller) => ReadAhead | null;

/** A route that reads nothing beyond its opening (and its permissions): COMMIT travels with it. */
export const OPENING_ONLY: RequestReads = () => ({ statements: [], complete: true });
