import { isValidPermission, MAX_PERMISSION_LENGTH } from '@gatehouse/engine';
import { z } from 'zod';
import { id } from '../models/fields.js';
import { invalidPermissionMessage } from '../permissions/invalid-permission-message.js';

/** The longest list a role or a membership holds. */
const MAX_PERMISSIONS = 200;

/**
 * A list of permission names, as the engine parses them; duplicates dropped. A name past the
 * length limit is named by the limit, not echoed back; another fault is named with its reason.
 */
export function permissionList(field: string) {
  const label = field.replace(/_/g, ' ');
  return z
    .array(
      z
        .string({ error: `The ${label} field must hold strings.` })
        .max(MAX_PERMISSION_LENGTH, { error: `The ${label} field holds a permission longer than ${MAX_PERMISSION_LENGTH} characters.`, abort: true })
        .refine(isValidPermission, { error: (issue) => invalidPermissionMessage(label, issue.input) }),
      { error: `The ${label} field must be an array of permissions.` },
    )
    .max(MAX_PERMISSIONS, `The ${label} field must not hold more than ${MAX_PERMISSIONS} permissions.`)
    .transform((permissions) => [...new Set(permissions)]);
}

/** `PATCH {t}/members/{id}`: any of the three, each replacing what the membership had. */
export const updateMemberSchema = z.strictObject({
  role_id: id('role_id').optional(),
  granted_permissions: permissionList('granted_permissions').optional(),
  denied_permissions: permissionList('denied_permissions').optional(),
});

/** `PUT {t}/roles/{id}/permissions`: the role's whole list in the organization. */
export const rolePermissionsSchema = z.strictObject({ permissions: permissionList('permissions') });
