import Router from '@koa/router';
import type { GatehouseState } from '../http/state.js';
import { authorize } from '../permissions/authorize.js';
import type { Services } from '../services.js';
import { cancelInvitation } from './cancel-invitation.js';
import { createInvitation } from './create-invitation.js';
import { listInvitations } from './list-invitations.js';
import { resendInvitation } from './resend-invitation.js';

/**
 * `{t}/invitations`, behind the member context. Resend and cancel check their permission after
 * finding the record: the record gate (404) comes before the permission (403).
 */
export function invitationsRouter(services: Services): Router<GatehouseState> {
  return new Router<GatehouseState>()
    .get('/', authorize('index', 'invitations'), listInvitations())
    .post('/', authorize('store', 'invitations'), createInvitation(services))
    .post('/:id/resend', resendInvitation(services))
    .delete('/:id', cancelInvitation());
}
