import { SERVICE_NAME, SERVICE_NAME_RULE } from '@gatehouse/engine';
import { z } from 'zod';
import { ConfigError } from '../errors/config-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { ADMINISTRATION_PERMISSIONS } from './administration-permissions.js';
import type { Executor } from '../db/repositories/executor.js';
import { listServiceResourceRows } from '../db/repositories/service-resources.js';

/** The registry's own permission resource (`service_resources.update`), held in a group without tenancy. */
export const SERVICE_RESOURCES = 'service_resources';

/** How many actions one resource may have: a resource's verbs, not a data set. */
export const MAX_RESOURCE_ACTIONS = 50;

const ACTION = /^[A-Za-z][A-Za-z0-9_-]{0,62}$/;

export const serviceNameSchema = z.string().regex(SERVICE_NAME, `The service must be ${SERVICE_NAME_RULE}.`);
export const resourceNameSchema = z.string().regex(SERVICE_NAME, `The resource must be ${SERVICE_NAME_RULE}.`);
export const resourceActionsSchema = z
  .array(z.string().regex(ACTION, 'Each action must be letters, digits, - and _, starting with a letter, at most 63.'), { error: 'The actions field must be a list of action names.' })
  .min(1, 'The actions field must name at least one action.')
  .max(MAX_RESOURCE_ACTIONS, `The actions field must not name more than ${MAX_RESOURCE_ACTIONS} actions.`)
  .refine((actions) => new Set(actions).size === actions.length, 'The actions field must not name an action twice.');

/** `services` of the config: `{billing: {resources: {invoices: ['index', 'show', 'approve']}}}`. */
export const servicesConfigSchema = z.record(serviceNameSchema, z.strictObject({ resources: z.record(resourceNameSchema, resourceActionsSchema) }));
export type ServicesConfig = z.input<typeof servicesConfigSchema>;

/** The body of `PUT {admin}/service-resources/{resource}` and what the CLI registers. */
export const serviceResourceSchema = z.strictObject({
  service: z.string({ error: 'The service field is required.' }).pipe(serviceNameSchema),
  actions: resourceActionsSchema,
});

/** A resource of another service, its actions named once here and granted as `{resource}.{action}`. */
export interface ServiceResource {
  readonly resource: string;
  readonly service: string;
  readonly actions: readonly string[];
  /** `config`: declared in the configuration, changed only there; `database`: registered at run time. */
  readonly origin: 'config' | 'database';
}

/** Why a name cannot be a service's resource: it names something of this service already. */
function takenBy(resource: string, modelSlugs: readonly string[]): string | null {
  if (modelSlugs.includes(resource)) return `${resource} is a model of this service.`;
  if (Object.hasOwn(ADMINISTRATION_PERMISSIONS, resource) || resource === SERVICE_RESOURCES) return `${resource} is an administration resource of this service.`;
  return null;
}

/** The configured services' resources, checked: valid names, none twice, none a model's or the administration's. */
export function resolveServiceResources(config: ServicesConfig | undefined, modelSlugs: readonly string[]): ServiceResource[] {
  if (config === undefined) return [];
  const parsed = servicesConfigSchema.safeParse(config);
  if (!parsed.success) throw new ConfigError(`services: ${parsed.error.issues[0]!.message}`);
  const resources: ServiceResource[] = [];
  for (const [service, { resources: declared }] of Object.entries(parsed.data)) {
    for (const [resource, actions] of Object.entries(declared)) {
      const taken = takenBy(resource, modelSlugs) ?? (resources.some((known) => known.resource === resource) ? `${resource} is declared by two services.` : null);
      if (taken !== null) throw new ConfigError(`services.${service}.resources.${resource}: ${taken}`);
      resources.push({ resource, service, actions, origin: 'config' });
    }
  }
  return resources;
}

/** 422 unless `resource` may be registered or removed at run time: not a model, not the administration's, not the configuration's. */
export function assertRegistrable(resource: string, modelSlugs: readonly string[], configured: readonly ServiceResource[]): void {
  const name = resourceNameSchema.safeParse(resource);
  if (!name.success) throw ValidationError.field('resource', name.error.issues[0]!.message);
  const taken = takenBy(resource, modelSlugs) ?? (configured.some((known) => known.resource === resource) ? `${resource} is declared in the configuration: change it there.` : null);
  if (taken !== null) throw ValidationError.field('resource', taken);
}

/** The configured resources and those registered in the database, by name: what every instance offers now. */
export async function serviceResources(db: Executor, configured: readonly ServiceResource[]): Promise<ServiceResource[]> {
  const registered = (await listServiceResourceRows(db)).filter((row) => !configured.some((known) => known.resource === row.resource));
  return [...configured, ...registered.map((row): ServiceResource => ({ ...row, origin: 'database' }))].sort((a, b) => a.resource.localeCompare(b.resource));
}
