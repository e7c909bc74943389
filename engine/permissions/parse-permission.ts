import { InvalidPermissionError } from '../errors/invalid-permission-error.js';
import { ABILITY_OPTIONS } from '../wire/ability-options.js';
import { WILDCARD } from '../wire/wildcard.js';

/**
 * A parsed permission; `*` parses to `{ slug: '*', action: '*' }`. `posts.update:own` carries
 * the condition `own`: update only on the records the posts policy's `own` condition matches.
 */
export interface Permission {
  readonly slug: string;
  readonly action: string;
  readonly condition?: string;
}

/** What separates a permission from its condition: `posts.update:own`. */
export const CONDITION_SEPARATOR = ':';

/** The longest permission, in characters: names are short, and every one is kept and compiled. */
export const MAX_PERMISSION_LENGTH = 200;

const NAME = '[A-Za-z0-9][A-Za-z0-9_-]*';
const PERMISSION = new RegExp(`^(?:\\*|${NAME}\\.(?:${NAME}(?::${NAME})?|\\*))$`);
const SHAPES = 'expected {slug}.{action}, {slug}.{action}:{condition}, {slug}.* or *';

// CASL's names for every action and every subject: the compiled rules spell the wildcards with them.
const RESERVED = { slug: ABILITY_OPTIONS.anySubjectType, action: ABILITY_OPTIONS.anyAction };

export function isValidPermission(permission: unknown): permission is string {
  if (typeof permission !== 'string' || permission.length > MAX_PERMISSION_LENGTH || !PERMISSION.test(permission)) return false;
  const [slug, action] = permission.split(CONDITION_SEPARATOR)[0]!.split('.');
  return slug !== RESERVED.slug && action !== RESERVED.action;
}

/** Why `permission` is not a permission string (`a condition is only allowed on ...`); undefined when it is one. */
export function permissionFault(permission: unknown): string | undefined {
  return isValidPermission(permission) ? undefined : explain(permission);
}

/** Parses `{slug}.{action}`, `{slug}.{action}:{condition}`, `{slug}.*` or `*`; anything else throws `InvalidPermissionError`. */
export function parsePermission(permission: string): Permission {
  const fault = permissionFault(permission);
  if (fault !== undefined) throw new InvalidPermissionError(permission, fault);
  const dot = permission.indexOf('.');
  if (dot === -1) return { slug: WILDCARD, action: WILDCARD };
  const colon = permission.indexOf(CONDITION_SEPARATOR);
  const slug = permission.slice(0, dot);
  if (colon === -1) return { slug, action: permission.slice(dot + 1) };
  return { slug, action: permission.slice(dot + 1, colon), condition: permission.slice(colon + 1) };
}

export function formatPermission({ slug, action, condition }: Permission): string {
  if (slug === WILDCARD) return WILDCARD;
  return condition === undefined ? `${slug}.${action}` : `${slug}.${action}${CONDITION_SEPARATOR}${condition}`;
}

// Only reached once the fast pattern has failed, so it may take its time to name the exact fault.
function explain(permission: unknown): string {
  if (typeof permission !== 'string') return `expected a string, got ${permission === null ? 'null' : typeof permission}`;
  if (permission === '') return 'it is empty';
  if (permission.length > MAX_PERMISSION_LENGTH) return `it is longer than ${MAX_PERMISSION_LENGTH} characters`;
  if (/\s/.test(permission)) return 'it contains whitespace';
  const stray = /[^A-Za-z0-9_.*:-]/.exec(permission);
  if (stray !== null) return `it contains the character ${JSON.stringify(stray[0])}`;
  const conditioned = permission.split(CONDITION_SEPARATOR);
  if (conditioned.length > 2) return `it has more than one ${JSON.stringify(CONDITION_SEPARATOR)}`;
  if (conditioned.length === 2) return explainConditioned(conditioned[0]!, conditioned[1]!);
  const segments = permission.split('.');
  if (segments.includes('')) return 'it has an empty segment';
  if (segments.length === 1) return `it names no action; ${SHAPES}`;
  if (segments.length > 2) return `it has more than one dot; ${SHAPES}`;
  if (segments[0] === WILDCARD) return 'a wildcard slug is only allowed as the bare "*"';
  if (permission.includes(WILDCARD)) return 'a wildcard must be a whole segment';
  if (segments[0] === RESERVED.slug) return `"${RESERVED.slug}" is CASL's name for every resource; write * instead`;
  if (segments[1] === RESERVED.action) return `"${RESERVED.action}" is CASL's name for every action; write ${segments[0]}.* instead`;
  return 'a slug or action must start with a letter or a digit';
}

function explainConditioned(permission: string, condition: string): string {
  if (condition === '') return 'it names an empty condition';
  if (permission.includes(WILDCARD)) return 'a condition is only allowed on {slug}.{action}, not on a wildcard';
  if (!new RegExp(`^${NAME}$`).test(condition)) return 'a condition must start with a letter or a digit';
  return explain(permission);
}
