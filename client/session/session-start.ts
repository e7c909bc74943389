import type { SessionStore } from './session-store.js';

/** What login and register answer with (DESIGN 5). */
export interface SessionResponse<User = unknown> {
  token?: string | null;
  user?: User;
  organization?: { slug: string } | null;
  organization_slug?: string | null;
  route_group?: string | null;
}

export interface StartedSession<User = unknown> {
  token: string | null;
  user: User | undefined;
  organization: { slug: string } | undefined;
  organization_slug: string | undefined;
  route_group: string | null;
}

/**
 * Describes the session a response starts and, when it carries a token, stores it before
 * returning, so a request issued right after sees the new token. The echoed route group wins
 * over the one the request was sent to.
 */
export async function startSession<User>(
  session: SessionStore,
  response: SessionResponse<User>,
  requestedGroup: string | null,
): Promise<StartedSession<User>> {
  const organizationSlug = response.organization?.slug ?? response.organization_slug ?? null;
  const started: StartedSession<User> = {
    token: response.token ?? null,
    user: response.user,
    organization: response.organization ?? (organizationSlug ? { slug: organizationSlug } : undefined),
    organization_slug: organizationSlug ?? undefined,
    route_group: response.route_group ?? requestedGroup,
  };
  if (started.token) {
    await session.write({
      token: started.token,
      user: response.user === undefined ? null : JSON.stringify(response.user),
      organization_slug: organizationSlug,
      route_group: started.route_group,
    });
  }
  return started;
}
