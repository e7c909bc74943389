/** Storage keys of the session: other clients of the same service read these names. */
export const SESSION_KEYS = ['token', 'user', 'organization_slug', 'route_group'] as const;

export type SessionKey = (typeof SESSION_KEYS)[number];
