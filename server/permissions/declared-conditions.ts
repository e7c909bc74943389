import { CONDITION_SEPARATOR, EMPTY_CATALOG, parsePermission, type ConditionCatalog } from '@gatehouse/engine';
import type { ModelRegistry } from '../models/model-registry.js';
import { ValidationError, type FieldErrors } from '../errors/validation-error.js';

/** The record conditions a permission may name: the registered models' policies', or none. */
export const declaredConditions = (registry: ModelRegistry | undefined): ConditionCatalog => registry?.conditions ?? EMPTY_CATALOG;

/** Why `permission` names a condition no policy declares for it; undefined when it may be held. */
export function undeclaredCondition(catalog: ConditionCatalog, permission: string): string | undefined {
  if (!permission.includes(CONDITION_SEPARATOR)) return undefined;
  const { slug, condition } = parsePermission(permission);
  if (condition === undefined || catalog.condition(slug, condition) !== undefined) return undefined;
  const named = `The permission ${permission} names the condition ${condition}`;
  // Another service's resource, or a typo of a model's slug: no policy here could declare it.
  if (catalog.shape(slug) === undefined) return `${named}, but ${slug} is not a model of this application: only a model's policy declares record conditions.`;
  const names = catalog.names(slug);
  const declared = names.length === 0 ? 'it declares no record conditions' : `it declares ${names.join(', ')}`;
  return `${named}, which the ${slug} policy does not declare (${declared}).`;
}

/** The lists' permissions that name an undeclared condition, by the field (or flag) that holds them; empty when there are none. */
export function undeclaredConditions(catalog: ConditionCatalog, fields: Readonly<Record<string, readonly string[] | undefined>>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, permissions] of Object.entries(fields)) {
    const faults = (permissions ?? []).map((permission) => undeclaredCondition(catalog, permission)).filter((fault) => fault !== undefined);
    if (faults.length > 0) errors[field] = faults;
  }
  return errors;
}

/**
 * Refuses (422) a conditioned permission whose condition the model's policy does not declare:
 * held, it would match no record, so a typo would silently take access away. `fields` are the
 * lists to check, by the field (or flag) that holds them.
 */
export function assertDeclaredConditions(catalog: ConditionCatalog, fields: Readonly<Record<string, readonly string[] | undefined>>): void {
  const errors = undeclaredConditions(catalog, fields);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}
