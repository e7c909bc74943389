import type { ConditionCatalog } from '@gatehouse/engine';
import type { GatehouseConfig } from '../config/gatehouse-config.js';
import { resolveOrganizationRoles } from '../config/server-config.js';
import type { OrganizationSettings } from '../organizations/draft-organization.js';
import { reservedSlugs } from '../organizations/reserved-slugs.js';
import { createModelRegistry } from '../models/model-registry.js';
import { defineRouteGroups, type RouteGroup } from '../models/route-group.js';
import { declaredConditions } from '../permissions/declared-conditions.js';
import { appRouteGroups } from './env-config.js';
import { appConfig } from './load-config.js';

/** What the admin commands need of the application's config: its organization rules and groups. */
export interface AdminApp {
  config: GatehouseConfig;
  settings: OrganizationSettings;
  routeGroups: RouteGroup[];
  reservedSlugs: ReadonlySet<string>;
  /** The record conditions the models' policies declare: what a conditioned permission may name. */
  conditions: ConditionCatalog;
}

/** `--config`, else the working directory's config file, else the core's defaults. */
export async function adminApp(configFile: string | undefined, options: { demoByDefault?: boolean } = {}): Promise<AdminApp> {
  const app = await appConfig(configFile, options);
  const routeGroups = defineRouteGroups(appRouteGroups(app));
  const conditions = declaredConditions(app.data ? createModelRegistry(app.data.models, app.data.policies) : undefined);
  return { config: app, settings: resolveOrganizationRoles(app), routeGroups, reservedSlugs: reservedSlugs(routeGroups), conditions };
}

/**
 * The route group of a membership the CLI writes: `--group`, else the default group, else the
 * first with organizations. Members sign in through it; a group without tenancy has no members.
 */
export function membershipGroup(app: AdminApp, name: string | undefined): string {
  const tenantGroups = app.routeGroups.filter((group) => group.tenancy !== 'none');
  if (name === undefined) {
    const group = tenantGroups.find((candidate) => candidate.isDefault) ?? tenantGroups[0];
    if (!group) throw new Error('The config has no route group with organizations (tenancy path or subdomain).');
    return group.name;
  }
  const group = app.routeGroups.find((candidate) => candidate.name === name);
  if (!group) throw new Error(`No route group is named "${name}" (the config has ${app.routeGroups.map((candidate) => candidate.name).join(', ')}).`);
  if (group.tenancy === 'none') throw new Error(`Route group ${name} has no organizations (tenancy none): choose another with --group.`);
  return group.name;
}
