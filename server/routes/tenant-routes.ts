import { cancelInvitation } from '../invitations/cancel-invitation.js';
import { createInvitation, invitationCreationReads } from '../invitations/create-invitation.js';
import { invitationReads } from '../invitations/find-invitation.js';
import { createInvitationSchema, invitationStatusSchema } from '../invitations/invitation-schemas.js';
import { listInvitations } from '../invitations/list-invitations.js';
import { resendInvitation } from '../invitations/resend-invitation.js';
import { createOrganization } from '../organizations/create-organization.js';
import { organizationExists } from '../organizations/organization-exists.js';
import { createOrganizationSchema } from '../organizations/organization-schemas.js';
import { authorizeChecks } from '../data/authorize-checks.js';
import { authorizeSchema } from '../data/authorize-schema.js';
import { authorize } from '../permissions/authorize.js';
import { member, signedIn, tenantMember } from '../route-groups/request-chains.js';
import { noWritePosition } from '../http/no-write-position.js';
import { userRole } from '../roles/user-role.js';
import { OPENING_ONLY } from '../tenancy/request-reads.js';
import { MEMBER_ROUTES } from './member-routes.js';
import type { RouteDefinition } from './route-definition.js';
import { listOf, ref } from './response-schemas.js';
import { DECISION_ROUTES } from './decision-routes.js';
import { SERVED_CHECKS, SERVING_ROUTES } from './serving-routes.js';
import { SERVICE_RESOURCE_ROUTES } from './service-resource-routes.js';

const userRoleRoute: RouteDefinition = {
  operationId: 'userRole',
  method: 'get',
  path: '/user-role',
  summary: 'The caller’s role, effective permissions, packed CASL rules and model-level abilities',
  description: 'Carries an `ETag` and `Cache-Control: private, no-cache`: a client revalidates with `If-None-Match` and gets a 304 while nothing changed.',
  tag: 'organizations',
  access: 'bearer',
  responses: { 200: { description: 'Role, rules and abilities', schema: ref('UserRole') }, 304: { description: 'Unchanged since the ETag sent in `If-None-Match`' } },
  errors: [401, 403, 404],
  handle: (services) => member(services, OPENING_ONLY).before(userRole(services, SERVED_CHECKS)),
};

/** `POST {authBase}/organizations` of a group with tenancy: a signed-in caller `organizationCreation` admits, who becomes its owner. */
export const GROUP_ROUTES: readonly RouteDefinition[] = [
  {
    operationId: 'createOrganization',
    method: 'post',
    path: '/organizations',
    summary: 'Create an organization; the caller becomes its owner',
    description:
      'Who may is the `organizationCreation.allowed` setting: any signed-in user, holders of a permission in their own permissions, or nobody (403 with a reason). Past the per-user limits: 429 with `Retry-After` (created per hour), 403 (owned at once).',
    tag: 'organizations',
    access: 'bearer',
    body: createOrganizationSchema,
    responses: { 201: { description: 'Created', schema: ref('Organization') } },
    errors: [401, 403, 422, 429],
    handle: (services) => signedIn(services).before(createOrganization(services)),
  },
];

/**
 * The tenant-only operations under `{t}` (a base ending in the organization). They answer before
 * the data routes of the same base, so `GET {t}/organizations` is theirs, never the generic index.
 * The slug check is open to any signed-in caller; everything else needs membership.
 */
export const TENANT_ROUTES: readonly RouteDefinition[] = [
  {
    operationId: 'organizationExists',
    method: 'get',
    path: '/organizations/exists',
    summary: 'Whether the slug in the path is taken',
    description: 'Any signed-in caller; the organization itself only for its members.',
    tag: 'organizations',
    access: 'bearer',
    responses: { 200: { description: 'Taken or free', schema: ref('OrganizationExistence') } },
    errors: [401, 403],
    handle: (services) => signedIn(services).before(organizationExists(services)),
  },
  ...SERVING_ROUTES,
  userRoleRoute,
  {
    operationId: 'authorize',
    method: 'post',
    path: '/authorize',
    summary: 'Whether the caller may do each of up to 100 actions, answered as the requests would be',
    description:
      'Each check (`{model, action, id?, fields?: {read?, write?}, include?}`) runs through the gates of the route that answers its request (record gate, policy with its overrides, write list, include hops; `GET {t}/roles` and `GET {t}/organizations` as those tenant routes decide) in one tenant transaction. A read of fields the caller may not read is allowed, as the request answers without them, and names them in `hidden_fields`. An unknown model or action refuses that check only. Each plan (`{model, action}`) answers which records the caller may act on: `always`, `never` or `conditional` with the condition tree, the plan the SQL of the lists reads through.',
    tag: 'organizations',
    access: 'bearer',
    body: authorizeSchema,
    responses: { 200: { description: 'One result per check and one plan per plan asked, in order', schema: ref('AuthorizeResults') } },
    errors: [401, 403, 404, 422],
    handle: (services) => [noWritePosition(), ...tenantMember(services).before(authorizeChecks(services, SERVED_CHECKS))],
  },
  {
    operationId: 'listInvitations',
    method: 'get',
    path: '/invitations',
    summary: 'Invitations of the organization',
    tag: 'invitations',
    access: 'bearer',
    query: invitationStatusSchema,
    responses: { 200: { description: 'Invitations', schema: listOf(ref('Invitation')) } },
    errors: [400, 401, 403, 404, 422],
    handle: (services) => tenantMember(services).before(authorize('index', 'invitations'), listInvitations()),
  },
  {
    operationId: 'createInvitation',
    method: 'post',
    path: '/invitations',
    summary: 'Invite someone by email with a role',
    tag: 'invitations',
    access: 'bearer',
    body: createInvitationSchema,
    responses: { 201: { description: 'Invited; the token goes only into the mail', schema: ref('Invitation') } },
    errors: [401, 403, 404, 422],
    handle: (services) => tenantMember(services, invitationCreationReads(services)).before(authorize('store', 'invitations'), createInvitation(services)),
  },
  {
    operationId: 'resendInvitation',
    method: 'post',
    path: '/invitations/:id/resend',
    summary: 'Mail a pending invitation again, with a new token and expiry; an expired one is a 422 (create a new one)',
    tag: 'invitations',
    access: 'bearer',
    responses: { 200: { description: 'Renewed', schema: ref('Invitation') } },
    errors: [401, 403, 404, 422],
    handle: (services) => tenantMember(services, invitationReads(services, { role: true })).before(resendInvitation(services)),
  },
  {
    operationId: 'cancelInvitation',
    method: 'delete',
    path: '/invitations/:id',
    summary: 'Cancel a pending invitation',
    tag: 'invitations',
    access: 'bearer',
    responses: {
      200: { description: 'Cancelled', schema: { type: 'object', properties: { message: { type: 'string' }, invitation: ref('Invitation') }, required: ['message', 'invitation'] } },
    },
    errors: [401, 403, 404, 422],
    handle: (services) => tenantMember(services, invitationReads(services, { role: false })).before(cancelInvitation()),
  },
  ...MEMBER_ROUTES,
  ...DECISION_ROUTES,
];

/** A group without tenancy has no tenant operations, but its members still need their rules. */
export const TENANTLESS_ROUTES: readonly RouteDefinition[] = [userRoleRoute, ...SERVICE_RESOURCE_ROUTES];
