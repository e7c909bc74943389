import { permissionList } from '../members/member-schemas.js';
import { validate } from '../http/validate.js';

/**
 * A command-line list of permissions (`'posts.*, comments.index'`, `'*'`): comma- or
 * space-separated, each checked as the HTTP API checks them. Absent means none.
 */
export function parsePermissionList(raw: string | undefined, flag: string): string[] {
  if (raw === undefined) return [];
  return validate(permissionList(flag), raw.split(/[\s,]+/).filter((entry) => entry !== ''));
}

/** How a list reads in the commands' output. */
export const listed = (permissions: readonly string[]) => (permissions.length > 0 ? permissions.join(', ') : '(none)');

export const union = (list: readonly string[], added: readonly string[]) => [...new Set([...list, ...added])];

/** Fails when one permission is in two of the options' lists, which would contradict each other. */
export function assertDisjoint(lists: Record<string, readonly string[]>): void {
  const entries = Object.entries(lists);
  for (const [index, [flag, list]] of entries.entries()) {
    for (const [otherFlag, other] of entries.slice(index + 1)) {
      const both = list.find((permission) => other.includes(permission));
      if (both !== undefined) throw new Error(`${both} is in both --${flag} and --${otherFlag}.`);
    }
  }
}
