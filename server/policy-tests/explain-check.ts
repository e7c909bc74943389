import { abilityPermits, compileAbility, policyMethodFor, type PolicyUser, type ResourcePolicy } from '@gatehouse/engine';
import type { ModelDefinition } from '../models/define-model.js';

/** Where a principal's permissions came from, as the server layers them. */
export interface PermissionOrigin {
  /** `role viewer` or `users.permissions`. */
  readonly source: string;
  readonly permissions: readonly string[];
  readonly granted: readonly string[];
  readonly denied: readonly string[];
}

type Policy = ResourcePolicy<object>;

/** The class in the policy's chain that defines `method`: `PostPolicy.create`, `ResourcePolicy.update`. */
function definedBy(policy: Policy, method: string): string {
  let owner: object | null = Object.getPrototypeOf(policy) as object;
  while (owner !== null && !Object.hasOwn(owner, method)) owner = Object.getPrototypeOf(owner) as object | null;
  const name = (owner?.constructor as { name?: string } | undefined)?.name;
  return `${name || 'ResourcePolicy'}.${method}`;
}

const list = (entries: readonly string[]) => (entries.length === 0 ? 'none' : entries.join(', '));

/** The entries of `entries` that cover `permission`, each judged by the engine's own matcher. */
const covering = (entries: readonly string[], permission: string) => entries.filter((entry) => abilityPermits(compileAbility([entry]), permission));

/** Why the permission is held or not: the entries that grant it, and the denials that take it away. */
function permissionStory(origin: PermissionOrigin, permission: string): string {
  const deniedBy = covering(origin.denied, permission);
  if (deniedBy.length > 0) return `${permission} is denied to this user (${list(deniedBy)})`;
  const grantedBy = [
    ...covering(origin.permissions, permission).map((entry) => `${entry} from ${origin.source}`),
    ...covering(origin.granted, permission).map((entry) => `${entry} granted to the user`),
  ];
  if (grantedBy.length > 0) return `${permission} is held (${grantedBy.join('; ')})`;
  return `${permission} is not held (${origin.source}: ${list(origin.permissions)}; granted: ${list(origin.granted)})`;
}

/** An action's decision: the permission and its sources, then any policy override that refused. */
export function explainAction(policy: Policy, origin: PermissionOrigin, action: string, allowed: boolean): string {
  const permission = `${policy.resourceSlug}.${action}`;
  const story = permissionStory(origin, permission);
  const method = policyMethodFor(action);
  if (method === undefined || !policy.hasPermission(permission)) return story;
  return `${story}; ${definedBy(policy, method)} ${allowed ? 'allows' : 'refuses'}`;
}

/** Why an attribute is shown or not: the model's own hidden list, then the policy's whitelist and blacklist. */
export function explainRead(policy: Policy, model: ModelDefinition, user: PolicyUser | null, field: string, visible: boolean): string {
  if (model.hidden.includes(field)) return `model ${model.slug} hides ${field} from everyone`;
  const whitelist = policy.permittedAttributesForShow(user);
  if (whitelist !== null && !whitelist.includes(field)) return `${definedBy(policy, 'permittedAttributesForShow')} does not list ${field} (${list(whitelist)})`;
  const blacklist = policy.hiddenAttributesForShow(user);
  if (blacklist?.includes(field)) return `${definedBy(policy, 'hiddenAttributesForShow')} strips ${field}`;
  return visible ? `no read rule strips ${field}` : `${field} is not shown`;
}

/** Why a body may set a field or not: fillable on the model, then the policy's write list. */
export function explainWrite(policy: Policy, model: ModelDefinition, permitted: readonly string[] | null, operation: 'create' | 'update', field: string): string {
  const method = definedBy(policy, operation === 'create' ? 'permittedAttributesForCreate' : 'permittedAttributesForUpdate');
  if (!model.fillable.includes(field)) return `${field} is not fillable on model ${model.slug}`;
  if (permitted === null) return `${method} allows every fillable field`;
  return permitted.includes(field) ? `${method} lists ${field}` : `${method} lists only ${list(permitted)}`;
}

/** Why an include is allowed or not: every hop needs `{slug}.index`, the first refused one decides. */
export function explainInclude(origin: PermissionOrigin, refusedHop: { path: string; slug: string } | null): string {
  if (refusedHop === null) return 'every hop is indexable';
  return `the hop ${refusedHop.path} needs ${refusedHop.slug}.index: ${permissionStory(origin, `${refusedHop.slug}.index`)}`;
}
