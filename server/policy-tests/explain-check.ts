import { explainPermission, policyMethodFor, policyMethodName, type PolicyUser, type ResourcePolicy } from '@gatehouse/engine';
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

const list = (entries: readonly string[]) => (entries.length === 0 ? 'none' : entries.join(', '));

/** Why the permission is held or not: the entries that grant it, and the denials that take it away. */
export function permissionStory(origin: PermissionOrigin, permission: string): string {
  const explained = explainPermission({ role: origin.permissions, granted: origin.granted, denied: origin.denied }, permission);
  if (!explained.allowed && explained.denied_by.length > 0) return `${permission} is denied to this user (${list(explained.denied_by.map(({ entry }) => entry))})`;
  if (explained.allowed) {
    const grantedBy = explained.granted_by.map(({ source, entry }) => (source === 'granted' ? `${entry} granted to the user` : `${entry} from ${origin.source}`));
    return `${permission} is held (${grantedBy.join('; ')})`;
  }
  return `${permission} is not held (${origin.source}: ${list(origin.permissions)}; granted: ${list(origin.granted)})`;
}

/** An action's decision: the permission and its sources, then any policy override that refused. */
export function explainAction(policy: Policy, origin: PermissionOrigin, action: string, allowed: boolean): string {
  const permission = `${policy.resourceSlug}.${action}`;
  const story = permissionStory(origin, permission);
  const method = policyMethodFor(action);
  if (method === undefined || !policy.hasPermission(permission)) return story;
  return `${story}; ${policyMethodName(policy, method)} ${allowed ? 'allows' : 'refuses'}`;
}

/** Why an attribute is shown or not: the model's own hidden list, then the policy's whitelist and blacklist. */
export function explainRead(policy: Policy, model: ModelDefinition, user: PolicyUser | null, field: string, visible: boolean): string {
  if (model.hidden.includes(field)) return `model ${model.slug} hides ${field} from everyone`;
  const whitelist = policy.permittedAttributesForShow(user);
  if (whitelist !== null && !whitelist.includes(field)) return `${policyMethodName(policy, 'permittedAttributesForShow')} does not list ${field} (${list(whitelist)})`;
  const blacklist = policy.hiddenAttributesForShow(user);
  if (blacklist?.includes(field)) return `${policyMethodName(policy, 'hiddenAttributesForShow')} strips ${field}`;
  return visible ? `no read rule strips ${field}` : `${field} is not shown`;
}

/** Why a body may set a field or not: fillable on the model, then the policy's write list. */
export function explainWrite(policy: Policy, model: ModelDefinition, permitted: readonly string[] | null, operation: 'create' | 'update', field: string): string {
  const method = policyMethodName(policy, operation === 'create' ? 'permittedAttributesForCreate' : 'permittedAttributesForUpdate');
  if (!model.fillable.includes(field)) return `${field} is not fillable on model ${model.slug}`;
  if (permitted === null) return `${method} allows every fillable field`;
  return permitted.includes(field) ? `${method} lists ${field}` : `${method} lists only ${list(permitted)}`;
}

/** Why an include is allowed or not: every hop needs `{slug}.index`, the first refused one decides. */
export function explainInclude(origin: PermissionOrigin, refusedHop: { path: string; slug: string } | null): string {
  if (refusedHop === null) return 'every hop is indexable';
  return `the hop ${refusedHop.path} needs ${refusedHop.slug}.index: ${permissionStory(origin, `${refusedHop.slug}.index`)}`;
}
