import type { OrganizationRecord } from '../db/repositories/organizations.js';
import type { AuthUser } from '../http/state.js';
import { serializeOrganization } from '../organizations/serialize-organization.js';
import { serializeUser } from './serialize-user.js';

export interface StartedSession {
  token: string;
  user: AuthUser;
  organization: OrganizationRecord | null;
  /** The group echoed to the client: the one in the auth URL, null on the plain `/auth/*` path. */
  routeGroup: string | null;
}

/** The login and register answer; the client stores token, user and organization from it. */
export function sessionResponse(session: StartedSession) {
  return {
    token: session.token,
    user: serializeUser(session.user),
    organization: session.organization && serializeOrganization(session.organization),
    organization_slug: session.organization?.slug ?? null,
    route_group: session.routeGroup,
  };
}
