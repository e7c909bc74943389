import { hasGroupMembership } from '../db/repositories/memberships.js';
import { findUserByEmail } from '../db/repositories/users.js';
import { InvalidCredentialsError } from '../errors/invalid-credentials-error.js';
import { NotGroupMemberError } from '../errors/not-group-member-error.js';
import type { GatehouseMiddleware, GroupState } from '../http/state.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { loginSchema } from './auth-schemas.js';
import { defaultOrganization } from './default-organization.js';
import { hashPassword, verifyPassword } from './password.js';
import { sessionResponse } from './session-response.js';
import { startSession } from './start-session.js';
import { throttledAttempt } from '../throttle/throttled-attempt.js';

// Verifying against a real hash when the email is unknown keeps both answers equally slow.
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= hashPassword('gatehouse decoy password'));

/** Checks in order: fields (422), throttle (429), credentials (401), group membership (403). */
export function login(services: Services, echoedGroup: string | null): GatehouseMiddleware<GroupState> {
  return async (ctx) => {
    const credentials = validate(loginSchema, ctx.request.body);
    const attempter = { email: credentials.email, address: ctx.ip };
    const deadline = ctx.state.deadline;
    await throttledAttempt(services, services.db, 'login', attempter, deadline);

    const user = await findUserByEmail(services.db, credentials.email, deadline);
    const valid = await verifyPassword(user?.password_hash ?? (await decoy()), credentials.password);
    if (!user || !valid) throw new InvalidCredentialsError();
    await services.throttle.succeeded(services.db, 'login', attempter, deadline);

    // No session yet, so no request opening to answer: signing in asks the membership itself.
    const group = ctx.state.routeGroup;
    if (services.config.membershipEnforcement && !(await hasGroupMembership(services.db, user.id, group.name, deadline))) throw new NotGroupMemberError();
    const organization = await defaultOrganization(services, user.id, group, ctx.state.hostOrganization, deadline);
    const { token } = await startSession(services, user.id, group.name, deadline);
    ctx.body = sessionResponse({ token, user, organization, routeGroup: echoedGroup });
  };
}
