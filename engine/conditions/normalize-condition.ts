import { COMPARISONS, CONTEXT_KEYS, MEMBERSHIPS, ORDERINGS, QUANTIFIERS, TRUE, isContextRef, type Comparison, type ConditionNode, type ContextKey, type Operand } from './condition-tree.js';
import type { ModelShape, ShapeAttribute, ShapeLookup } from './model-shape.js';

/** Relations nest at most this deep: each level is an EXISTS subquery. */
export const MAX_CONDITION_DEPTH = 4;
/** The longest `in`/`nin` list. */
export const MAX_IN_VALUES = 100;

const CONTEXT_TYPES: Record<ContextKey, ShapeAttribute> = { 'user.id': 'integer', 'organization.id': 'integer', 'organization.slug': 'string', route_group: 'string' };
/**
 * The attribute types whose values JavaScript and PostgreSQL compare alike: a timestamp is a Date
 * on the server and a string in the browser, and PostgreSQL hands a numeric back as text.
 */
const COMPARABLE = new Set<ShapeAttribute>(['integer', 'string', 'boolean']);
const TESTS = new Set<string>([...COMPARISONS, ...MEMBERSHIPS, 'null']);
const LOGICAL = new Set(['and', 'or', 'not']);

/** A fault in a declaration, with where it is; normalizeCondition's caller names the condition. */
export class ConditionProblem extends Error {}

/** An object as a declaration writes one: a Date (or a Map...) has no keys to read, and is no condition. */
const isObject = (value: unknown): value is Record<string, unknown> => Object.prototype.toString.call(value) === '[object Object]';
const typeName = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : value instanceof Date ? 'a Date' : typeof value);

/** A value as a refusal names it: its JSON where that says what it is, else its kind. */
function shown(value: unknown): string {
  if (typeof value === 'bigint') return `the bigint ${value}`;
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (value instanceof Date) return typeName(value);
  try {
    return JSON.stringify(value) ?? typeName(value);
  } catch {
    return typeName(value);
  }
}

/**
 * Checks a declared condition against the model's attributes and relations and returns its tree.
 * Anything it does not know (an attribute, a relation, an operator, a context key) is refused:
 * a condition that silently ignored a typo would admit or hide the wrong records.
 */
export function normalizeCondition(declared: unknown, shape: ModelShape, lookup: ShapeLookup, depth = 0): ConditionNode {
  if (!isObject(declared)) throw new ConditionProblem(`a condition must be an object, got ${typeName(declared)}`);
  const parts = Object.entries(declared).map(([key, value]) => normalizeKey(key, value, shape, lookup, depth));
  return parts.length === 1 ? parts[0]! : parts.length === 0 ? TRUE : { op: 'and', conditions: parts };
}

function normalizeKey(key: string, value: unknown, shape: ModelShape, lookup: ShapeLookup, depth: number): ConditionNode {
  if (LOGICAL.has(key)) return normalizeLogical(key, value, shape, lookup, depth);
  if (Object.hasOwn(shape.attributes, key)) return normalizeTests(key, shape.attributes[key]!, value);
  if (Object.hasOwn(shape.relations, key)) return normalizeRelation(key, value, shape, lookup, depth);
  throw new ConditionProblem(`${shape.slug} has no attribute or relation "${key}"`);
}

function normalizeLogical(key: string, value: unknown, shape: ModelShape, lookup: ShapeLookup, depth: number): ConditionNode {
  if (key === 'not') return { op: 'not', condition: normalizeCondition(value, shape, lookup, depth) };
  if (!Array.isArray(value) || value.length === 0) throw new ConditionProblem(`"${key}" takes a non-empty array of conditions`);
  return { op: key as 'and' | 'or', conditions: value.map((item) => normalizeCondition(item, shape, lookup, depth)) };
}

function normalizeRelation(name: string, value: unknown, shape: ModelShape, lookup: ShapeLookup, depth: number): ConditionNode {
  const relation = shape.relations[name]!;
  const target = lookup(relation.model);
  if (target === undefined) throw new ConditionProblem(`relation "${name}" names unknown model ${relation.model}`);
  if (depth + 1 > MAX_CONDITION_DEPTH) throw new ConditionProblem(`relations nest deeper than ${MAX_CONDITION_DEPTH}`);
  if (!isObject(value) || Object.keys(value).length === 0) throw new ConditionProblem(`relation "${name}" takes { some | none | every: condition }`);
  const parts = Object.entries(value).map(([quantifier, inner]): ConditionNode => {
    if (!(QUANTIFIERS as readonly string[]).includes(quantifier)) throw new ConditionProblem(`unknown relation operator "${quantifier}" on "${name}"; expected ${QUANTIFIERS.join(', ')}`);
    return { op: quantifier as (typeof QUANTIFIERS)[number], relation: name, condition: normalizeCondition(inner, target, lookup, depth + 1) };
  });
  return parts.length === 1 ? parts[0]! : { op: 'and', conditions: parts };
}

function normalizeTests(attribute: string, type: ShapeAttribute, value: unknown): ConditionNode {
  if (!isObject(value) || isContextRef(value)) return value === null ? { op: 'null', attribute } : comparison(attribute, type, 'eq', value);
  const parts = Object.entries(value).map(([test, operand]) => {
    if (!TESTS.has(test)) throw new ConditionProblem(`unknown operator "${test}" on ${attribute}; expected ${[...TESTS].join(', ')}`);
    if (test === 'null') {
      if (typeof operand !== 'boolean') throw new ConditionProblem(`"null" on ${attribute} takes true or false`);
      return { op: operand ? 'null' : 'not_null', attribute } as ConditionNode;
    }
    if (test === 'in' || test === 'nin') return membership(attribute, type, test, operand);
    return comparison(attribute, type, test as Comparison, operand);
  });
  if (parts.length === 0) throw new ConditionProblem(`${attribute} has no test`);
  return parts.length === 1 ? parts[0]! : { op: 'and', conditions: parts };
}

function comparison(attribute: string, type: ShapeAttribute, op: Comparison, value: unknown): ConditionNode {
  if (value === null && (op === 'eq' || op === 'ne')) return { op: op === 'eq' ? 'null' : 'not_null', attribute };
  if (ORDERINGS.includes(op) && type !== 'integer') {
    throw new ConditionProblem(`"${op}" needs an integer attribute; ${attribute} is ${type}`);
  }
  return { op, attribute, value: operand(attribute, type, value) };
}

function membership(attribute: string, type: ShapeAttribute, op: 'in' | 'nin', values: unknown): ConditionNode {
  if (!Array.isArray(values) || values.length > MAX_IN_VALUES) throw new ConditionProblem(`"${op}" on ${attribute} takes an array of at most ${MAX_IN_VALUES} values`);
  return { op, attribute, values: values.map((value) => operand(attribute, type, value)) };
}

/** A value checked against its attribute's type: both sides of the comparison must mean the same in JavaScript and in SQL. */
function operand(attribute: string, type: ShapeAttribute, value: unknown): Operand {
  if (!COMPARABLE.has(type)) throw new ConditionProblem(`${attribute} is ${type}: only null checks are offered on it`);
  if (isContextRef(value)) {
    const context = value.context as ContextKey;
    if (!CONTEXT_KEYS.includes(context)) throw new ConditionProblem(`unknown context "${String(value.context)}"; expected ${CONTEXT_KEYS.join(', ')}`);
    if (CONTEXT_TYPES[context] !== type) throw new ConditionProblem(`${attribute} is ${type}, but context ${context} is ${CONTEXT_TYPES[context]}`);
    return { context };
  }
  if (!fits(type, value)) throw new ConditionProblem(`${attribute} is ${type}, got ${shown(value)}`);
  return value;
}


function fits(type: ShapeAttribute, value: unknown): value is string | number | boolean {
  switch (type) {
    case 'integer':
      return Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return typeof value === 'string';
  }
}
