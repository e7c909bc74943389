import { ConfigError } from '../errors/config-error.js';
import { SLUG, SLUG_BODY } from './slug.js';

/** Where a group finds the organization: a path segment, the host, or nowhere. */
export type Tenancy = 'path' | 'subdomain' | 'none';

export interface RouteGroupConfig {
  /** Names the group in auth URLs (`/{name}/auth/*`), tokens, memberships and policies. */
  name: string;
  /** Data URL prefix below the base path, such as `{organization}` or `admin`. */
  prefix?: string;
  /** Host pattern such as `{organization}.example.test`: the group answers only on matching hosts. */
  domain?: string;
  /** Defaults to `path` when the prefix holds `{organization}`, `subdomain` when the domain does. */
  tenancy?: Tenancy;
  /** Serve auth routes and require a bearer token; default true. */
  auth?: boolean;
  /** Model slugs the group's data router serves. */
  models?: readonly string[];
  /** The group behind the plain `/auth/*` routes of the main host. */
  default?: boolean;
}

export interface RouteGroup {
  readonly name: string;
  readonly prefix: string | null;
  readonly domain: string | null;
  readonly tenancy: Tenancy;
  readonly auth: boolean;
  readonly models: readonly string[];
  readonly isDefault: boolean;
}

const PLACEHOLDER = '{organization}';

function inferTenancy(config: RouteGroupConfig): Tenancy {
  if (config.prefix?.includes(PLACEHOLDER)) return 'path';
  if (config.domain?.includes(PLACEHOLDER)) return 'subdomain';
  return 'none';
}

function checkTenancy(group: RouteGroup): void {
  const where: Record<Tenancy, string | null> = { path: group.prefix, subdomain: group.domain, none: null };
  const holder = where[group.tenancy];
  if (group.tenancy !== 'none' && !holder?.includes(PLACEHOLDER)) {
    throw new ConfigError(`Route group ${group.name}: tenancy ${group.tenancy} needs ${PLACEHOLDER} in its ${group.tenancy === 'path' ? 'prefix' : 'domain'}.`);
  }
  for (const other of [group.prefix, group.domain]) {
    if (other !== holder && other?.includes(PLACEHOLDER)) {
      throw new ConfigError(`Route group ${group.name}: ${PLACEHOLDER} may appear only where tenancy ${group.tenancy} reads it.`);
    }
  }
}

export function defineRouteGroup(config: RouteGroupConfig): RouteGroup {
  if (!SLUG.test(config.name)) throw new ConfigError(`Route group name "${config.name}" must be a lower-case slug.`);
  const prefix = config.prefix?.replace(/^\/+|\/+$/g, '') || null;
  const group: RouteGroup = {
    name: config.name,
    prefix,
    domain: config.domain?.toLowerCase() ?? null,
    tenancy: config.tenancy ?? inferTenancy(config),
    auth: config.auth ?? true,
    models: config.models ?? [],
    isDefault: config.default ?? false,
  };
  if (!group.prefix && !group.domain) throw new ConfigError(`Route group ${group.name} needs a prefix or a domain.`);
  if (group.isDefault && group.domain) throw new ConfigError(`Route group ${group.name}: a domain group cannot be the main host's default.`);
  checkTenancy(group);
  return group;
}

/** Validates the set: unique names, one default at most (the first prefix group otherwise). */
export function defineRouteGroups(configs: readonly RouteGroupConfig[]): RouteGroup[] {
  const groups = configs.map(defineRouteGroup);
  const names = new Set<string>();
  for (const group of groups) {
    if (names.has(group.name)) throw new ConfigError(`Route group ${group.name} is defined twice.`);
    names.add(group.name);
  }
  const defaults = groups.filter((group) => group.isDefault);
  if (defaults.length > 1) throw new ConfigError('Only one route group can be the default.');
  if (defaults.length === 0) {
    const first = groups.findIndex((group) => !group.domain);
    if (first >= 0) groups[first] = { ...groups[first]!, isDefault: true };
  }
  return groups;
}

/** Compiles a domain pattern; the organization label, when there is one, is captured. */
export function hostMatcher(domain: string): (hostname: string) => { organization: string | null } | null {
  const [before = '', after = ''] = domain.split(PLACEHOLDER);
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = domain.includes(PLACEHOLDER)
    ? new RegExp(`^${escape(before)}(${SLUG_BODY})${escape(after)}$`)
    : new RegExp(`^${escape(domain)}$`);
  return (hostname) => {
    const match = pattern.exec(hostname.toLowerCase());
    return match ? { organization: match[1] ?? null } : null;
  };
}

const toRoutePath = (prefix: string) => `/${prefix.replace(PLACEHOLDER, ':organization')}`;

/**
 * Paths (below the base path) that stand for the group itself: its auth routes and organization
 * creation hang below them. The default group also owns the bare base path.
 */
export function groupBases(group: RouteGroup): string[] {
  if (group.domain && !group.prefix) return [''];
  return group.isDefault ? ['', `/${group.name}`] : [`/${group.name}`];
}

/**
 * Bases of the group's data routes. A client that puts the group in its data path
 * (routeGroupInDataPath) reaches a prefix that does not start with the group name through
 * `/{name}/{prefix}`.
 */
export function dataBases(group: RouteGroup): string[] {
  if (!group.prefix) return [''];
  const own = toRoutePath(group.prefix);
  const startsWithName = group.prefix === group.name || group.prefix.startsWith(`${group.name}/`);
  return startsWithName ? [own] : [own, `/${group.name}${own}`];
}

/** Tenant-only operations always carry the organization segment, whatever the tenancy. */
export function tenantBases(group: RouteGroup): string[] {
  if (group.tenancy === 'none') return [];
  return group.tenancy === 'path' ? dataBases(group) : dataBases(group).map((base) => `${base}/:organization`);
}
