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
