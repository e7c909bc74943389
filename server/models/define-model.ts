import { ABILITY_OPTIONS } from '@gatehouse/engine/wire';
import type { ZodType } from 'zod';
import { ConfigError } from '../config/config-error.js';
import { COUNT_MODES, isCountMode, type CountMode } from '../query/count-mode.js';
import type { LooseRow, LooseSelect } from '../query/loose-schema.js';
import type { TypedValue } from '../query/typed-value.js';

export type AttributeType = 'integer' | 'number' | 'string' | 'boolean' | 'timestamp' | 'string[]';

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
}

/** Narrows a query to the rows a caller may know about; row-level hiding lives here. */
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

const AGGREGATES = ['count', 'sum', 'avg', 'min', 'max'] as const;

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

/** A registration that cannot work; raised at start-up, like every configuration error. */
export class ModelDefinitionError extends ConfigError {
  constructor(slug: string, problem: string) {
    super(`Model ${slug}: ${problem}`);
    this.name = 'ModelDefinitionError';
  }
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
export const MAX_PER_PAGE = 100;

function checkIdentifiers(slug: string, kind: string, names: Iterable<string>, known?: Record<string, unknown>) {
  for (const name of names) {
    if (!IDENTIFIER.test(name)) throw new ModelDefinitionError(slug, `${kind} "${name}" is not a plain identifier`);
    if (known && !Object.hasOwn(known, name)) throw new ModelDefinitionError(slug, `${kind} "${name}" is not a registered attribute`);
  }
}

const SCOPE_ARGUMENTS = ['integer', 'number', 'string', 'boolean', 'timestamp'] as const;

function namedScopes(slug: string, scopes: Record<string, Scope | ScopeWithArgument>): Record<string, NamedScope> {
  return Object.fromEntries(
    Object.entries(scopes).map(([name, scope]): [string, NamedScope] => {
      if (typeof scope === 'function') return [name, { argument: null, apply: (query, context) => scope(query, context) }];
      if (!SCOPE_ARGUMENTS.includes(scope.argument)) throw new ModelDefinitionError(slug, `scope "${name}" has unknown argument type ${String(scope.argument)}`);
      return [name, { argument: scope.argument, apply: (query, context, argument) => scope.apply(query, context, argument!) }];
    }),
  );
}

function updateSchema(create: ZodType): ZodType {
  const partial = (create as { partial?: () => ZodType }).partial;
  return typeof partial === 'function' ? partial.call(create) : create;
}

/**
 * Checks a registration once, at startup: every identifier that can reach SQL must be a plain
 * name declared here, so request input is only ever matched against this whitelist.
 */
export function defineModel(options: ModelOptions): ModelDefinition {
  const { slug } = options;
  if (!/^[a-z][a-z0-9_-]*$/.test(slug)) throw new ModelDefinitionError(slug, 'slug must be lower-case letters, digits, underscores and dashes');
  if (slug === ABILITY_OPTIONS.anySubjectType) throw new ModelDefinitionError(slug, `"${slug}" is CASL's name for every resource, so no permission can name it`);
  const attributes = { id: 'integer' as const, ...options.attributes };
  checkIdentifiers(slug, 'table', [options.table ?? slug.replaceAll('-', '_')]);
  checkIdentifiers(slug, 'attribute', Object.keys(attributes));
  for (const [kind, names] of Object.entries({
    fillable: options.fillable,
    hidden: options.hidden ?? [],
    filter: options.filters ?? [],
    sort: options.sorts ?? [],
    search: options.search ?? [],
  })) {
    checkIdentifiers(slug, kind, names, attributes);
  }
  const defaultSort = options.defaultSort ?? 'id';
  checkIdentifiers(slug, 'default sort', [defaultSort.replace(/^-/, '')], attributes);
  if (options.authorColumn) checkIdentifiers(slug, 'author column', [options.authorColumn], attributes);
  if (options.owner) checkIdentifiers(slug, 'owner key', [options.owner.foreignKey], attributes);
  if (options.softDeletes && !Object.hasOwn(attributes, 'deleted_at')) throw new ModelDefinitionError(slug, 'soft deletes need a deleted_at attribute');
  if (options.audit && !options.tenantOwned) throw new ModelDefinitionError(slug, 'the audit trail is kept per organization, so it needs a tenant-owned model');
  for (const [name, relation] of Object.entries(options.relations ?? {})) {
    checkIdentifiers(slug, 'relation', [name]);
    if (relation.kind === 'belongsTo') checkIdentifiers(slug, 'relation key', [relation.foreignKey], attributes);
    else checkIdentifiers(slug, 'relation key', [relation.foreignKey]);
  }
  for (const [name, aggregate] of Object.entries(options.computed ?? {})) {
    checkIdentifiers(slug, 'computed value', [name]);
    if (!AGGREGATES.includes(aggregate.fn)) throw new ModelDefinitionError(slug, `computed value "${name}" has unknown function ${String(aggregate.fn)}`);
    if (aggregate.fn !== 'count' && !aggregate.column) throw new ModelDefinitionError(slug, `computed value "${name}" needs a column`);
    checkIdentifiers(slug, 'computed column', aggregate.column ? [aggregate.column] : [], attributes);
    checkIdentifiers(slug, 'computed condition', Object.keys(aggregate.where ?? {}), attributes);
  }
  const count = options.count ?? 'exact';
  if (!isCountMode(count)) throw new ModelDefinitionError(slug, `count must be one of ${COUNT_MODES.join(', ')}`);
  for (const [name, computed] of Object.entries(options.computedAttributes ?? {})) {
    checkIdentifiers(slug, 'computed attribute', [name]);
    if (Object.hasOwn(attributes, name)) throw new ModelDefinitionError(slug, `computed attribute "${name}" is also an attribute`);
    checkIdentifiers(slug, `computed attribute "${name}" use`, computed.uses, attributes);
  }
  const perPage = options.perPage ?? 15;
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) throw new ModelDefinitionError(slug, `perPage must be 1..${MAX_PER_PAGE}`);
  return Object.freeze({
    slug,
    table: options.table ?? slug.replaceAll('-', '_'),
    tenantOwned: options.tenantOwned,
    owner: options.owner,
    attributes,
    fillable: options.fillable,
    hidden: options.hidden ?? [],
    authorColumn: options.authorColumn,
    filters: options.filters ?? [],
    sorts: options.sorts ?? [],
    defaultSort,
    search: options.search ?? [],
    relations: options.relations ?? {},
    recordScope: options.recordScope,
    scopes: namedScopes(slug, options.scopes ?? {}),
    perPage,
    count,
    softDeletes: options.softDeletes ?? false,
    audit: options.audit ?? false,
    computed: options.computed ?? {},
    computedAttributes: options.computedAttributes ?? {},
    validation: options.validation && {
      create: options.validation.create,
      update: options.validation.update ?? updateSchema(options.validation.create),
    },
  });
}
