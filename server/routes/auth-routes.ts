import { loginSchema, passwordRecoverSchema, passwordResetSchema, registerSchema } from '../auth/auth-schemas.js';
import { login } from '../auth/login.js';
import { logout } from '../auth/logout.js';
import { passwordRecover } from '../auth/password-recover.js';
import { passwordReset } from '../auth/password-reset.js';
import { register } from '../auth/register.js';
import { anonymous, groupSession } from '../route-groups/request-chains.js';
import { noWritePosition } from '../http/no-write-position.js';
import type { Mount, RouteDefinition } from './route-definition.js';
import { ref } from './response-schemas.js';

/** What login and register tell the client about its route group: the one in the URL, null on the plain path. */
const echoedGroup = ({ group, base }: Mount) => (base === '' || !group ? null : group.name);
const message = (description: string) => ({ description, schema: ref('Message') });

/**
 * `{authBase}/auth/*` of a route group. Logout needs only a valid session, not a membership, so a
 * denied member can still sign out.
 */
export const AUTH_ROUTES: readonly RouteDefinition[] = [
  {
    operationId: 'login',
    method: 'post',
    path: '/login',
    summary: 'Sign in',
    tag: 'auth',
    access: 'none',
    body: loginSchema,
    responses: { 200: { description: 'The session started', schema: ref('Session') } },
    errors: [401, 403, 422, 429],
    handle: (services, mount) => anonymous(services).before(login(services, echoedGroup(mount))),
  },
  {
    operationId: 'logout',
    method: 'post',
    path: '/logout',
    summary: 'End this session',
    tag: 'auth',
    access: 'bearer',
    responses: { 200: message('Logged out') },
    errors: [401],
    handle: (services) => [noWritePosition(), ...groupSession(services).before(logout(services))],
  },
  {
    operationId: 'register',
    method: 'post',
    path: '/register',
    summary: 'Register with an invitation token',
    tag: 'auth',
    access: 'none',
    body: registerSchema,
    responses: { 201: { description: 'Registered and signed in', schema: ref('Session') } },
    errors: [404, 422],
    handle: (services, mount) => anonymous(services).before(register(services, echoedGroup(mount))),
  },
  {
    operationId: 'passwordRecover',
    method: 'post',
    path: '/password/recover',
    summary: 'Mail a password reset link',
    description: 'The same answer whether or not the email exists.',
    tag: 'auth',
    access: 'none',
    body: passwordRecoverSchema,
    responses: { 200: message('Mailed when the account exists') },
    errors: [422],
    handle: (services) => anonymous(services).before(passwordRecover(services)),
  },
  {
    operationId: 'passwordReset',
    method: 'post',
    path: '/password/reset',
    summary: 'Set a new password with the mailed token',
    description: 'Ends every session of the user.',
    tag: 'auth',
    access: 'none',
    body: passwordResetSchema,
    responses: { 200: message('Password reset') },
    errors: [422],
    handle: (services) => anonymous(services).before(passwordReset(services)),
  },
];
