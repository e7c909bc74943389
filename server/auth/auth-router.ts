import Router from '@koa/router';
import type { GatehouseState } from '../http/state.js';
import type { Services } from '../services.js';
import { authenticate } from './authenticate.js';
import { login } from './login.js';
import { logout } from './logout.js';
import { passwordRecover } from './password-recover.js';
import { passwordReset } from './password-reset.js';
import { register } from './register.js';

/**
 * The `/auth/*` set of one route group at one of its bases. `echoedGroup` is what login and
 * register tell the client about its route group: the one in the URL, null on the plain path.
 * Logout needs only a valid session, not a membership, so a denied member can still sign out.
 */
export function authRouter(services: Services, echoedGroup: string | null): Router<GatehouseState> {
  return new Router<GatehouseState>()
    .post('/login', login(services, echoedGroup))
    .post('/logout', authenticate(services), logout(services))
    .post('/register', register(services, echoedGroup))
    .post('/password/recover', passwordRecover(services))
    .post('/password/reset', passwordReset(services));
}
