import type { DataState, GatehouseMiddleware } from '../http/state.js';
import { validate } from '../http/validate.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { modelSlugs } from '../models/model-registry.js';
import { deleteServiceResource, upsertServiceResource } from '../db/repositories/service-resources.js';
import type { Services } from '../services.js';
import { assertRegistrable, serviceResources, serviceResourceSchema, type ServiceResource } from './service-resources.js';

/** `GET {admin}/service-resources`: the resources of other services, configured and registered. */
export function listServiceResources(services: Services): GatehouseMiddleware<DataState> {
  return async (ctx) => {
    ctx.body = { data: await serviceResources(ctx.state.trx, services.config.services) };
  };
}

/** `PUT {admin}/service-resources/{resource}`: registers a resource with its service and actions, or replaces them. */
export function registerServiceResource(services: Services): GatehouseMiddleware<DataState> {
  return async (ctx) => {
    const resource = ctx.params.resource ?? '';
    assertRegistrable(resource, modelSlugs(services.config.models), services.config.services);
    const { service, actions } = validate(serviceResourceSchema, ctx.request.body);
    const created = await upsertServiceResource(ctx.state.trx, { resource, service, actions });
    ctx.status = created ? 201 : 200;
    ctx.body = { resource, service, actions, origin: 'database' } satisfies ServiceResource;
  };
}

/** `DELETE {admin}/service-resources/{resource}`: the permissions naming it stay in the lists, and grant nothing known. */
export function removeServiceResource(services: Services): GatehouseMiddleware<DataState> {
  return async (ctx) => {
    const resource = ctx.params.resource ?? '';
    assertRegistrable(resource, modelSlugs(services.config.models), services.config.services);
    if (!(await deleteServiceResource(ctx.state.trx, resource))) throw new NotFoundError('Resource not found');
    ctx.status = 204;
  };
}
