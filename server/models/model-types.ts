import type { ConditionNode } from '@gatehouse/engine';
import type { ZodType } from 'zod';
import type { AttributeType } from './attribute-types.js';
import type { CountMode } from './count-mode.js';
import type { LooseRow, LooseSelect } from './loose-schema.js';
import type { TypedValue } from './typed-value.js';

// The public shape of a model registration: what `defineModel` takes and what it returns.

/** A relation the index and show endpoints can include (`?include=author,comments.author`). */
export interface Relation {
  kind: 'belongsTo' | 'hasMany';
  /** Slug of the related model; its own gates apply to the included rows. */
  model: string;
  /** belongsTo: column on this model; hasMany: column on the related model. */
  foreignKey: string;
}

export interface ScopeContext {
  organizationId: number | null;
  userId: number | null;
  routeGroup: string | null;
  /** The caller's record conditions, which every statement over a model's records adds; none before the caller's permissions are loaded. */
  access?: RecordAccess;
}

/** Which records of each model a caller may act on, as the record statements read it. */
export interface RecordAccess {
  /**
   * The caller's condition on `slug`'s records for `action`, its facts filled in; null where a
   * statement adds nothing: every record, or none (then the policy gate refuses the request).
   */
  condition(slug: string, action: string): ConditionNode | null;
  /** A related model that a condition's relation reaches. */
  model(slug: string): ModelDefinition;
}

/**
 * Narrows a query to the rows a caller may know about; row-level hiding lives here. A function of
 * its arguments only (no clock, no outside state): the statement it builds is compiled once per
 * context and reused.
 */
export type Scope = (query: LooseSelect, context: ScopeContext) => LooseSelect;

/** A scope the caller names with an argument (`?scope[byAuthor]=7`), checked against its type like a filter value. */
export interface ScopeWithArgument {
  argument: Exclude<AttributeType, 'string[]'>;
  apply: (query: LooseSelect, context: ScopeContext, argument: TypedValue) => LooseSelect;
}

/** A named scope as the query builder applies it: `argument` is null for a scope that takes none. */
export interface NamedScope {
  argument: ScopeWithArgument['argument'] | null;
  apply: (query: LooseSelect, context: ScopeContext, argument: TypedValue | null) => LooseSelect;
}

/** The aggregate functions a computed value may use. */
export const AGGREGATES = ['count', 'sum', 'avg', 'min', 'max'] as const;

export interface Aggregate {
  fn: (typeof AGGREGATES)[number];
  /** Required for every function but count. */
  column?: string;
  /** Equality conditions on registered attributes. */
  where?: Record<string, string | number | boolean | null>;
}

/** A value computed per record, returned when asked for with `?computed_attributes=name`. */
export interface ComputedAttribute {
  type: AttributeType;
  /** The attributes it is computed from: a caller who may not read one of them does not get it either. */
  uses: readonly string[];
  compute: (record: LooseRow) => unknown;
}

export interface ModelOptions {
  /** The URL segment and the resource slug of the permissions (`posts.index`); the policy is found by it (`PostPolicy`). */
  slug: string;
  /** Defaults to the slug. */
  table?: string;
  /** Rows carry organization_id and live behind row-level security. */
  tenantOwned: boolean;
  /** For children: the parent a new row must belong to (comment -> post); it supplies the organization. */
  owner?: { model: string; foreignKey: string };
  /** Every column the model exposes, with its type; the primary key `id` is implied. */
  attributes: Record<string, AttributeType>;
  /** Columns a request body may set, before the policy narrows them further. */
  fillable: readonly string[];
  /** Columns never serialized, whoever asks. */
  hidden?: readonly string[];
  /** Column filled with the caller's user id on create. */
  authorColumn?: string;
  filters?: readonly string[];
  sorts?: readonly string[];
  /** `-column` for descending; the primary key always breaks ties. */
  defaultSort?: string;
  search?: readonly string[];
  relations?: Record<string, Relation>;
  /** Applied to every query of the model. */
  recordScope?: Scope;
  /** Chosen by the caller with `?scope=name` or `?scope[name]=`; one that declares an argument with `?scope[name]=value`. */
  scopes?: Record<string, Scope | ScopeWithArgument>;
  perPage?: number;
  /**
   * How the index counts its rows when the client sends no `Prefer: count=...`: `exact` (the
   * default), `planned` (the planner's estimate), `estimated` (exact up to 10,000 rows, the
   * estimate above) or `none` (no total). Large tables answer much faster with an estimate.
   */
  count?: CountMode;
  softDeletes?: boolean;
  audit?: boolean;
  computed?: Record<string, Aggregate>;
  computedAttributes?: Record<string, ComputedAttribute>;
  /** Body schemas; update defaults to the create schema with every field optional. */
  validation?: { create: ZodType; update?: ZodType };
}

export interface ModelDefinition extends Required<Omit<ModelOptions, 'owner' | 'authorColumn' | 'recordScope' | 'validation' | 'defaultSort' | 'scopes'>> {
  scopes: Record<string, NamedScope>;
  owner: { model: string; foreignKey: string } | undefined;
  authorColumn: string | undefined;
  recordScope: Scope | undefined;
  validation: { create: ZodType; update: ZodType } | undefined;
  defaultSort: string;
}
