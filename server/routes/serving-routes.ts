import { z } from 'zod';
import { fetchOrganizations } from '../organizations/fetch-organizations.js';
import { organizationIncludes } from '../organizations/organization-includes.js';
import { tenantMember } from '../route-groups/request-chains.js';
import { listRoles } from '../roles/list-roles.js';
import type { RouteDefinition } from './route-definition.js';
import { listOf, ref } from './response-schemas.js';
import { servedChecks } from './served-checks.js';

/**
 * The tenant routes that answer where a data route would (`GET {t}/organizations` and `GET
 * {t}/roles` before those models' index), each saying how it decides that data route's check.
 */
export const SERVING_ROUTES: readonly RouteDefinition[] = [
  {
    operationId: 'fetchOrganization',
    method: 'get',
    path: '/organizations',
    summary: 'The organization of the path, as a one-element list',
    tag: 'organizations',
    access: 'bearer',
    query: z.object({ 'filter[slug]': z.string().optional(), 'filter[id]': z.string().optional(), include: z.string().optional().describe('`users`, `roles`, comma-separated.') }),
    responses: { 200: { description: 'The organization, or none when the filters exclude it', schema: listOf(ref('OrganizationWithIncludes')) } },
    errors: [400, 401, 403, 404],
    handle: (services) => tenantMember(services).before(fetchOrganizations()),
    servesCheck: (ability, check) => void organizationIncludes(check.include?.join(','), ability),
  },
  {
    operationId: 'listRoles',
    method: 'get',
    path: '/roles',
    summary: 'The roles of the organization',
    tag: 'organizations',
    access: 'bearer',
    responses: { 200: { description: 'Roles', schema: listOf(ref('Role')) } },
    errors: [401, 403, 404],
    handle: (services) => tenantMember(services).before(listRoles()),
    // Any member reads them, to show or pick one.
    servesCheck: () => {},
  },
];

/** The checks `POST {t}/authorize` and `POST {t}/explain` answer as these routes decide them. */
export const SERVED_CHECKS = servedChecks(SERVING_ROUTES);
