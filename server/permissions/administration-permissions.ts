/** The administration operations and the permission each needs, as `{resource: actions}`. */
export const ADMINISTRATION_PERMISSIONS: Readonly<Record<string, readonly string[]>> = {
  memberships: ['index', 'update', 'destroy'],
  roles: ['show', 'update'],
  invitations: ['index', 'store', 'update', 'destroy'],
  audit: ['index'],
  decisions: ['index', 'explain'],
};
