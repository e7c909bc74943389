/**
 * The documented JSON tree of a record condition: what a policy's declaration normalizes to,
 * what `authorize` plans answer and explain shows, and what the CASL and SQL compilers read.
 */

/** The caller's facts a condition may compare with; they are filled in per caller, never per record. */
export const CONTEXT_KEYS = ['user.id', 'organization.id', 'organization.slug', 'route_group'] as const;
export type ContextKey = (typeof CONTEXT_KEYS)[number];

export interface ContextRef {
  readonly context: ContextKey;
}

export type Scalar = string | number | boolean;

/** A value in a condition: a literal, or (until resolved for a caller) one of the caller's facts. */
export type Operand = Scalar | ContextRef;

export const COMPARISONS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte'] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** Comparisons that order values: only integers, which JavaScript and PostgreSQL order alike (strings follow collations). */
export const ORDERINGS: readonly Comparison[] = ['lt', 'lte', 'gt', 'gte'];

export const MEMBERSHIPS = ['in', 'nin'] as const;
export type Membership = (typeof MEMBERSHIPS)[number];

export const NULL_CHECKS = ['null', 'not_null'] as const;
export type NullCheck = (typeof NULL_CHECKS)[number];

export const QUANTIFIERS = ['some', 'none', 'every'] as const;
export type Quantifier = (typeof QUANTIFIERS)[number];

export type ConditionNode =
  | { readonly op: 'true' }
  | { readonly op: 'false' }
  | { readonly op: 'and' | 'or'; readonly conditions: readonly ConditionNode[] }
  | { readonly op: 'not'; readonly condition: ConditionNode }
  | { readonly op: Comparison; readonly attribute: string; readonly value: Operand }
  | { readonly op: Membership; readonly attribute: string; readonly values: readonly Operand[] }
  | { readonly op: NullCheck; readonly attribute: string }
  | { readonly op: Quantifier; readonly relation: string; readonly condition: ConditionNode };

export const TRUE: ConditionNode = Object.freeze({ op: 'true' });
export const FALSE: ConditionNode = Object.freeze({ op: 'false' });

export const isContextRef = (value: unknown): value is ContextRef =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && Object.hasOwn(value, 'context');
