import { auditTrailQuerySchema } from '../audit/audit-trail-query.js';
import { organizationAuditTrail } from '../audit/organization-audit-trail.js';
import { listMembers } from '../members/list-members.js';
import { memberRemovalReads, memberUpdateReads } from '../members/member-reads.js';
import { rolePermissionsSchema, updateMemberSchema } from '../members/member-schemas.js';
import { removeMember } from '../members/remove-member.js';
import { updateMember } from '../members/update-member.js';
import { authorize } from '../permissions/authorize.js';
import { permissionCatalog } from '../permissions/permission-catalog.js';
import { tenantMember } from '../route-groups/request-chains.js';
import { showRolePermissions, updateRolePermissions } from '../roles/role-permissions.js';
import { roleReads } from '../roles/role-reads.js';
import type { RouteDefinition } from './route-definition.js';
import { listOf, ref } from './response-schemas.js';

const needs = (permission: string) => `Needs the permission \`${permission}\`. Nobody grants or changes a permission they do not hold (403 naming it).`;

/**
 * Administration of one organization under `{t}`, each operation behind its own permission.
 * Update, remove and the role's permissions check the permission before they look for the
 * record: 403 before 404, so a caller without it learns nothing of who is a member.
 */
export const MEMBER_ROUTES: readonly RouteDefinition[] = [
  {
    operationId: 'listMembers',
    method: 'get',
    path: '/members',
    summary: 'The members with their role and per-user permission lists',
    description: needs('memberships.index'),
    tag: 'members',
    access: 'bearer',
    responses: { 200: { description: 'Members', schema: listOf(ref('Member')) } },
    errors: [401, 403, 404],
    handle: (services) => tenantMember(services).before(authorize('index', 'memberships'), listMembers()),
  },
  {
    operationId: 'updateMember',
    method: 'patch',
    path: '/members/:id',
    summary: 'Change a member’s role and granted or denied permissions; effective on their next request, audited',
    description: needs('memberships.update'),
    tag: 'members',
    access: 'bearer',
    body: updateMemberSchema,
    responses: { 200: { description: 'The member', schema: ref('Member') } },
    errors: [401, 403, 404, 422],
    handle: (services) => tenantMember(services, memberUpdateReads(services)).before(updateMember(services)),
  },
  {
    operationId: 'removeMember',
    method: 'delete',
    path: '/members/:id',
    summary: 'End a membership (never the last owner)',
    description: needs('memberships.destroy'),
    tag: 'members',
    access: 'bearer',
    responses: { 200: { description: 'Removed', schema: ref('Message') } },
    errors: [401, 403, 404],
    handle: (services) => tenantMember(services, memberRemovalReads(services)).before(removeMember(services)),
  },
  {
    operationId: 'showRolePermissions',
    method: 'get',
    path: '/roles/:id/permissions',
    summary: 'A role’s permissions in the organization',
    description: needs('roles.show'),
    tag: 'members',
    access: 'bearer',
    responses: { 200: { description: 'The role and its permissions', schema: ref('RolePermissions') } },
    errors: [401, 403, 404],
    handle: (services) => tenantMember(services, roleReads(services, true)).before(showRolePermissions()),
  },
  {
    operationId: 'updateRolePermissions',
    method: 'put',
    path: '/roles/:id/permissions',
    summary: 'Replace a role’s permissions in the organization; effective on its members’ next request, audited',
    description: needs('roles.update'),
    tag: 'members',
    access: 'bearer',
    body: rolePermissionsSchema,
    responses: { 200: { description: 'The role and its permissions', schema: ref('RolePermissions') } },
    errors: [401, 403, 404, 422],
    handle: (services) => tenantMember(services, roleReads(services, false)).before(updateRolePermissions(services)),
  },
  {
    operationId: 'organizationAuditTrail',
    method: 'get',
    path: '/audit',
    summary: 'The organization’s audit trail, newest first: record changes and permission changes',
    description: `${needs('audit.index')} Filters: \`filter[model]\`, \`filter[user_id]\`, \`filter[action]\`; a record’s values pass through the caller’s read gate for its model.`,
    tag: 'members',
    access: 'bearer',
    query: auditTrailQuerySchema,
    responses: { 200: { description: 'One page of the trail', paged: true, schema: listOf(ref('OrganizationAuditEntry')) } },
    errors: [400, 401, 403, 404],
    handle: (services) => tenantMember(services).before(authorize('index', 'audit'), organizationAuditTrail(services.config.models)),
  },
  {
    operationId: 'permissionCatalog',
    method: 'get',
    path: '/permission-catalog',
    summary: 'Every permission a role or member can be given here: the served models’ actions, the administration operations and the resources of other services',
    description: 'Any member; the permission picker of an admin screen is built from it.',
    tag: 'members',
    access: 'bearer',
    responses: { 200: { description: 'Resources and their actions', schema: listOf(ref('PermissionCatalogEntry')) } },
    errors: [401, 403, 404],
    handle: (services) => tenantMember(services).before(permissionCatalog(services)),
  },
];
