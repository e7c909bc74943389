import { isStoredInteger } from './integer-range.js';

const ID = /^[1-9][0-9]{0,9}$/;

/** The `:id` of an administration path (a member's user id, a role's, an invitation's); null when it can name no record. */
export function pathId(raw: string | undefined): number | null {
  const id = ID.test(raw ?? '') ? Number(raw) : NaN;
  return isStoredInteger(id) ? id : null;
}
