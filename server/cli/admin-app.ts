import { CONDITION_SEPARATOR } from '@gatehouse/engine';
import type { GatehouseConfig } from '../config/gatehouse-config.js';
import { resolveOrganizationRoles } from '../config/server-config.js';
import type { OrganizationSettings } from '../organizations/draft-organization.js';
import { reservedSlugs } from '../organizations/reserved-slugs.js';
import { createModelRegistry } from '../models/model-registry.js';
import { defineRouteGroups, type RouteGroup } from '../models/route-group.js';
import { assertDeclaredConditions, declaredConditions } from '../permissions/declared-conditions.js';
import { ConfigError } from '../errors/config-error.js';
import { appRouteGroups } from './env-config.js';
import { CONFIG_FILES, loadAppConfig } from './load-config.js';

/** What the admin commands need of the application's config: its organization rules and groups. */
export interface AdminApp {
  config: GatehouseConfig;
  settings: OrganizationSettings;
  routeGroups: RouteGroup[];
  reservedSlugs: ReadonlySet<string>;
  /**
   * Refuses a conditioned permission of the lists (by flag) that no model's policy declares, as
   * the HTTP API does; without any application config, says that instead of blaming a policy.
   */
  assertConditions(lists: Readonly<Record<string, readonly string[]>>): void;
}

/** Where no application config is found, a condition has no model to come from: the refusal says so. */
function assertNoConditions(lists: Readonly<Record<string, readonly string[]>>): void {
  const conditioned = Object.values(lists)
    .flat()
    .find((permission) => permission.includes(CONDITION_SEPARATOR));
  if (conditioned === undefined) return;
  throw new ConfigError(
    `The permission ${conditioned} names a record condition, but no application config was found (--config <file>, or ${CONFIG_FILES.join(', ')} here), so no model declares one: pass --config <file> of the application the server serves.`,
  );
}

/** The application's rules the admin commands check against (see loadAppConfig for where they come from). */
export async function adminApp(configFile: string | undefined): Promise<AdminApp> {
  const { file, config: app } = await loadAppConfig(configFile);
  const routeGroups = defineRouteGroups(appRouteGroups(app));
  const conditions = declaredConditions(app.data ? createModelRegistry(app.data.models, app.data.policies) : undefined);
  return {
    config: app,
    settings: resolveOrganizationRoles(app),
    routeGroups,
    reservedSlugs: reservedSlugs(routeGroups),
    assertConditions: file === undefined ? assertNoConditions : (lists) => assertDeclaredConditions(conditions, lists),
  };
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
