import { authorize } from '../permissions/authorize.js';
import { listServiceResources, registerServiceResource, removeServiceResource } from '../permissions/service-resource-handlers.js';
import { SERVICE_RESOURCES as SLUG, serviceResourceSchema } from '../permissions/service-resources.js';
import { member } from '../route-groups/request-chains.js';
import type { RouteDefinition } from './route-definition.js';
import { listOf, ref } from './response-schemas.js';

/**
 * The registry of other services' resources, on the bases of a group without tenancy (the demo's
 * `admin`): service-wide data, stored in the database so every instance offers the same.
 */
export const SERVICE_RESOURCE_ROUTES: readonly RouteDefinition[] = [
  {
    operationId: 'listServiceResources',
    method: 'get',
    path: '/service-resources',
    summary: 'The resources of other services, configured and registered',
    description: 'Needs `service_resources.index`.',
    tag: 'services',
    access: 'bearer',
    responses: { 200: { description: 'Resources with their service and actions', schema: listOf(ref('ServiceResource')) } },
    errors: [401, 403],
    handle: (services) => member(services).before(authorize('index', SLUG), listServiceResources(services)),
  },
  {
    operationId: 'registerServiceResource',
    method: 'put',
    path: '/service-resources/:resource',
    summary: 'Register a resource of another service with its actions, or replace them',
    description:
      'Needs `service_resources.update`. Its permissions are `{resource}.{action}` and `{resource}.*`. A model of this service, an administration resource or a resource the configuration declares is a 422.',
    tag: 'services',
    access: 'bearer',
    body: serviceResourceSchema,
    responses: { 200: { description: 'Replaced', schema: ref('ServiceResource') }, 201: { description: 'Registered', schema: ref('ServiceResource') } },
    errors: [401, 403, 422],
    handle: (services) => member(services).before(authorize('update', SLUG), registerServiceResource(services)),
  },
  {
    operationId: 'removeServiceResource',
    method: 'delete',
    path: '/service-resources/:resource',
    summary: 'Remove a registered resource of another service',
    description: 'Needs `service_resources.destroy`. Permissions naming it stay in role and member lists, and are no longer offered.',
    tag: 'services',
    access: 'bearer',
    responses: { 204: { description: 'Removed' } },
    errors: [401, 403, 404, 422],
    handle: (services) => member(services).before(authorize('destroy', SLUG), removeServiceResource(services)),
  },
];
