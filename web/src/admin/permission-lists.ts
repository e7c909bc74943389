import { CONDITION_SEPARATOR } from '@gatehouse/engine';
import { WILDCARD } from '@gatehouse/engine/wire';

/** How a permission list covers one `{resource}.{action}` (or `{resource}.*`) cell. */
export type Coverage = { state: 'explicit' } | { state: 'implied'; by: string } | { state: 'none' };

export const permissionOf = (resource: string, action: string) => `${resource}.${action}`;

/** Whether the list names the cell itself, covers it with a wildcard, or neither. */
export function coverage(list: readonly string[], resource: string, action: string): Coverage {
  if (list.includes(permissionOf(resource, action))) return { state: 'explicit' };
  const wildcards = action === WILDCARD ? [WILDCARD] : [permissionOf(resource, WILDCARD), WILDCARD];
  const by = wildcards.find((wildcard) => list.includes(wildcard));
  return by === undefined ? { state: 'none' } : { state: 'implied', by };
}

/** The list with `permission` added or taken out, in a stable order. */
export function toggled(list: readonly string[], permission: string, on: boolean): string[] {
  const rest = list.filter((entry) => entry !== permission);
  return on ? [...rest, permission].sort() : rest;
}

/** What saving `after` over `before` adds and removes. */
export function difference(before: readonly string[], after: readonly string[]): { added: string[]; removed: string[] } {
  return { added: after.filter((entry) => !before.includes(entry)), removed: before.filter((entry) => !after.includes(entry)) };
}

/** The list's entries that hold `{resource}.{action}:{condition}`: the records a condition matches. */
export const conditionedOn = (list: readonly string[], resource: string) =>
  list.filter((entry) => entry.startsWith(`${resource}.`) && entry.includes(CONDITION_SEPARATOR));
