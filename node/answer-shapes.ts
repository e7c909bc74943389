import type { AuthorizePlan, AuthorizeResult } from '@gatehouse/engine/wire';
import { GatehouseError } from './errors.js';
import { isRecord } from './is-record.js';
import type { Permissions } from './permissions-cache.js';

/**
 * The body a call needs from a 2xx, checked before it is read: a proxy, a wrong `baseURL` or a
 * broken Gatehouse can answer 200 with anything, and a body passed on as is would become a
 * TypeError in the service, a cached `null`, or an `allowed: "false"` that reads as true.
 */
export interface ExpectedAnswer<T> {
  /** What the body lacked, in the error: "Gatehouse answered 200 without {what}." */
  what: string;
  is(body: unknown): body is T;
}

/** The error for a body that is not `expected`: `unavailable`, like any answer that cannot be used. */
export const notTheAnswer = (status: number, expected: ExpectedAnswer<unknown>) => new GatehouseError('unavailable', `Gatehouse answered ${status} without ${expected.what}.`, status);

const isListOf = <T>(value: unknown, isItem: (item: unknown) => item is T, length?: number): value is T[] =>
  Array.isArray(value) && (length === undefined || value.length === length) && value.every(isItem);
const isString = (value: unknown): value is string => typeof value === 'string';

const isResult = (value: unknown): value is AuthorizeResult => isRecord(value) && typeof value.allowed === 'boolean';
const isPlan = (value: unknown): value is AuthorizePlan =>
  isRecord(value) && (value.kind === 'always' || value.kind === 'never' || (value.kind === 'conditional' && isRecord(value.condition)));

/** `POST {t}/authorize` with `checks`: one result per check, in order, so none is missing or shifted. */
export const authorizeResults = (count: number): ExpectedAnswer<{ results: AuthorizeResult[] }> => ({
  what: `a result for each of the ${count} checks`,
  is: (body): body is { results: AuthorizeResult[] } => isRecord(body) && isListOf(body.results, isResult, count),
});

/** `POST {t}/authorize` with `plans`: one plan per request, in order. */
export const authorizePlans = (count: number): ExpectedAnswer<{ plans: AuthorizePlan[] }> => ({
  what: `a plan for each of the ${count} asked`,
  is: (body): body is { plans: AuthorizePlan[] } => isRecord(body) && isListOf(body.plans, isPlan, count),
});

const isAbilities = (value: unknown): value is Permissions['abilities'] =>
  isRecord(value) && Object.values(value).every((actions) => isRecord(actions) && Object.values(actions).every((allowed) => typeof allowed === 'boolean'));
/** CASL's packed rule, as `unpackRules` reads it: `[action, subject, conditions?, inverted?, fields?, reason?]`. */
const isPackedRule = (value: unknown): value is unknown[] => Array.isArray(value) && isString(value[0]) && isString(value[1]);
const isOrganization = (value: unknown): value is Permissions['organization'] =>
  value === null || (isRecord(value) && typeof value.id === 'number' && typeof value.slug === 'string');

/** `GET {t}/user-role`. */
export const PERMISSIONS: ExpectedAnswer<Permissions> = {
  what: 'a role, permissions, abilities, rules and organization',
  is: (body): body is Permissions =>
    isRecord(body) &&
    (body.role === null || isString(body.role)) &&
    isListOf(body.permissions, isString) &&
    isAbilities(body.abilities) &&
    isListOf(body.rules, isPackedRule) &&
    isOrganization(body.organization),
};

/** `GET {baseURL}/public-key`: whether each key imports is known only once it is imported. */
export const KEY_LIST: ExpectedAnswer<{ keys: { id: string; key: string }[] }> = {
  what: 'a list of PASERK k4.public keys with their ids',
  is: (body): body is { keys: { id: string; key: string }[] } =>
    isRecord(body) && isListOf(body.keys, (entry): entry is { id: string; key: string } => isRecord(entry) && isString(entry.id) && isString(entry.key)),
};
