// The demo's route groups (policies/route-groups.ts): the default group answers the plain
// `/api/auth/*`; the admin group has its own `/api/admin/auth/*` and no tenancy.
export const DEFAULT_GROUP = 'tenant';
export const ADMIN_GROUP = 'admin';
