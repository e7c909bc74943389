import { acceptInvitation } from '../invitations/accept-invitation.js';
import { acceptInvitationSchema } from '../invitations/invitation-schemas.js';
import { health, ready } from '../service/health.js';
import { publicKey } from '../service/public-key.js';
import { readinessCheck, sharedCheck } from '../service/readiness.js';
import type { RequestState } from '../http/state.js';
import { optionalSession } from '../route-groups/request-chains.js';
import type { RouteDefinition } from './route-definition.js';
import { ref } from './response-schemas.js';

/**
 * Routes outside every route group: the same on every host, any session may call them. The
 * OpenAPI document and its reference page join them from the layer above (`DOCUMENT_ROUTES`).
 */
export const SERVICE_ROUTES: readonly RouteDefinition<RequestState>[] = [
  {
    operationId: 'health',
    method: 'get',
    path: '/health',
    summary: 'Liveness: the process answers (the database is not asked)',
    tag: 'service',
    access: 'none',
    responses: { 200: { description: 'Alive', schema: ref('Health') } },
    errors: [],
    handle: () => [health()],
  },
  {
    operationId: 'ready',
    method: 'get',
    path: '/ready',
    summary: 'Readiness: the database answers and is migrated',
    tag: 'service',
    access: 'none',
    responses: { 200: { description: 'Ready to serve', schema: ref('Ready') } },
    errors: [503],
    handle: (services) => [ready(sharedCheck(readinessCheck(services.db)))],
  },
  // The list at /public-key; the well-known path answers the same since before rotation existed.
  ...(
    [
      ['/public-key', 'listPublicKeys'],
      ['/.well-known/paseto-public-key', 'publicKey'],
    ] as const
  ).map(
    ([path, operationId]): RouteDefinition<RequestState> => ({
      operationId,
      method: 'get',
      path,
      summary: 'The public keys that verify this service’s tokens',
      description: 'A verifier learns that a token is genuine and unexpired; only the service knows whether its session was revoked.',
      tag: 'service',
      access: 'none',
      responses: { 200: { description: 'PASERK k4.public keys with their ids', schema: ref('PublicKey') } },
      errors: [],
      handle: (services) => [publicKey(services)],
    }),
  ),
  {
    operationId: 'acceptInvitation',
    method: 'post',
    path: '/invitations/accept',
    summary: 'Accept an invitation as the signed-in invitee',
    tag: 'invitations',
    access: 'optional',
    body: acceptInvitationSchema,
    responses: { 200: { description: 'Accepted, or what a guest must do first', schema: ref('AcceptedInvitation') } },
    errors: [401, 403, 404, 422],
    handle: (services) => optionalSession(services).before(acceptInvitation(services)),
  },
];
