import { formatPermission, isValidPermission, parsePermission } from '@gatehouse/engine';
import { ConfigError } from '../errors/config-error.js';
import { invalidPermissionMessage } from '../permissions/invalid-permission-message.js';
import { storedWholeNumber } from './stored-whole-number.js';

/**
 * Who may create an organization over HTTP (`POST {authBase}/organizations`): any signed-in user;
 * only users whose own permissions (`users.permissions`, those of the route groups without
 * tenancy) hold `permission`; or nobody, leaving it to operators (`gatehouse org create`).
 */
export const ORGANIZATION_CREATORS = ['anyone', 'permission', 'nobody'] as const;

export type OrganizationCreators = (typeof ORGANIZATION_CREATORS)[number];

export interface OrganizationCreationConfig {
  /** Default `anyone`. */
  allowed?: OrganizationCreators;
  /** What `allowed: 'permission'` asks of the user's own permissions; default `organizations.store`. */
  permission?: string;
  /** Organizations one user may create in any hour; default 5. */
  perHour?: number;
  /** Organizations one user may own at once (hold the owner role in); default 20. */
  maxOwned?: number;
}

export type ResolvedOrganizationCreation = Required<OrganizationCreationConfig>;

export const ORGANIZATION_CREATION_DEFAULTS: ResolvedOrganizationCreation = { allowed: 'anyone', permission: 'organizations.store', perHour: 5, maxOwned: 20 };

const PERMISSION_FIELD = 'organizationCreation.permission';
// A condition is tested on the record acted on, and an organization being created is none yet.
const noRecordToTest = (condition: string, unconditioned: string) =>
  `it names the record condition ${condition}, but an organization being created has no record to test it on, so no one could ever hold it; name ${unconditioned}`;

export function resolveOrganizationCreation(config: OrganizationCreationConfig = {}): ResolvedOrganizationCreation {
  const resolved = { ...ORGANIZATION_CREATION_DEFAULTS, ...config };
  if (!ORGANIZATION_CREATORS.includes(resolved.allowed)) throw new ConfigError(`organizationCreation.allowed must be one of ${ORGANIZATION_CREATORS.join(', ')}.`);
  if (!isValidPermission(resolved.permission)) throw new ConfigError(invalidPermissionMessage(PERMISSION_FIELD, resolved.permission));
  const { condition, ...unconditioned } = parsePermission(resolved.permission);
  if (condition !== undefined) throw new ConfigError(invalidPermissionMessage(PERMISSION_FIELD, resolved.permission, noRecordToTest(condition, formatPermission(unconditioned))));
  // The hourly limit is kept with its counter in rate_limits.
  storedWholeNumber('organizationCreation.perHour', resolved.perHour);
  if (!Number.isSafeInteger(resolved.maxOwned) || resolved.maxOwned <= 0) throw new ConfigError('organizationCreation.maxOwned must be a positive integer.');
  return resolved;
}
