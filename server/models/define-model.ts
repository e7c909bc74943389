import { ABILITY_OPTIONS } from '@gatehouse/engine/wire';
import { z, type ZodType } from 'zod';
import { ConfigError } from '../config/config-error.js';
import { optionProblem } from '../config/option-problem.js';
import { COUNT_MODES, type CountMode } from '../query/count-mode.js';
import type { LooseRow, LooseSelect } from '../query/loose-schema.js';
import type { TypedValue } from '../query/typed-value.js';

const ATTRIBUTE_TYPES = ['integer', 'number', 'string', 'boolean', 'timestamp', 'string[]'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

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

export const MAX_PER_PAGE = 100;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const identifier = z.string().regex(IDENTIFIER, { error: (issue) => `${JSON.stringify(issue.input)} is not a plain identifier` });
const identifiers = z.array(identifier);
const scope = z.custom<Scope>((value) => typeof value === 'function', { error: 'must be a function (query, context) => query' });
const SCOPE_ARGUMENTS = ['integer', 'number', 'string', 'boolean', 'timestamp'] as const;
const namedScope = z.union([
  scope.transform((apply): NamedScope => ({ argument: null, apply: (query, context) => apply(query, context) })),
  z
    .strictObject({
      // Checked with the other inconsistencies, so the message names the scope.
      argument: z.string() as unknown as z.ZodType<ScopeWithArgument['argument']>,
      apply: z.custom<ScopeWithArgument['apply']>((value) => typeof value === 'function', { error: 'must be a function (query, context, argument) => query' }),
    })
    .transform(({ argument, apply }): NamedScope => ({ argument, apply: (query, context, value) => apply(query, context, value!) })),
]);
const bodySchema = z.custom<ZodType>((value) => typeof (value as { safeParse?: unknown } | null)?.safeParse === 'function', { error: 'must be a zod schema' });

/**
 * The one list of `defineModel` options: each is checked and defaulted here. Strict, so a
 * misspelt option is named rather than ignored; every name that can reach SQL is a plain
 * identifier.
 */
const modelOptionsSchema = z.strictObject({
  slug: z.string().regex(/^[a-z][a-z0-9_-]*$/, 'must be lower-case letters, digits, underscores and dashes'),
  table: identifier.optional(),
  tenantOwned: z.boolean(),
  owner: z.strictObject({ model: z.string(), foreignKey: identifier }).optional(),
  attributes: z.record(identifier, z.enum(ATTRIBUTE_TYPES)),
  fillable: identifiers,
  hidden: identifiers.default([]),
  authorColumn: identifier.optional(),
  filters: identifiers.default([]),
  sorts: identifiers.default([]),
  defaultSort: z.string().regex(/^-?[a-z_][a-z0-9_]*$/, 'must be a column, or -column for descending').default('id'),
  search: identifiers.default([]),
  relations: z.record(identifier, z.strictObject({ kind: z.enum(['belongsTo', 'hasMany']), model: z.string(), foreignKey: identifier })).default({}),
  recordScope: scope.optional(),
  scopes: z.record(z.string(), namedScope).default({}),
  count: z.enum(COUNT_MODES, { error: `count must be one of ${COUNT_MODES.join(', ')}` }).default('exact'),
  perPage: z.number().int().min(1, `must be 1..${MAX_PER_PAGE}`).max(MAX_PER_PAGE, `must be 1..${MAX_PER_PAGE}`).default(15),
  softDeletes: z.boolean().default(false),
  audit: z.boolean().default(false),
  computed: z
    .record(
      identifier,
      z.strictObject({ fn: z.enum(AGGREGATES), column: identifier.optional(), where: z.record(identifier, z.union([z.string(), z.number(), z.boolean(), z.null()])).optional() }),
    )
    .default({}),
  computedAttributes: z
    .record(
      identifier,
      z.strictObject({
        type: z.enum(ATTRIBUTE_TYPES),
        uses: identifiers,
        compute: z.custom<ComputedAttribute['compute']>((value) => typeof value === 'function', { error: 'must be a function (record) => value' }),
      }),
    )
    .default({}),
  validation: z.strictObject({ create: bodySchema, update: bodySchema.optional() }).optional(),
});

function updateSchema(create: ZodType): ZodType {
  const partial = (create as { partial?: () => ZodType }).partial;
  return typeof partial === 'function' ? partial.call(create) : create;
}

/** The first name that must be a declared attribute and is not, or another inconsistency. */
function inconsistency(definition: ModelDefinition): string | undefined {
  const { slug, attributes, relations, computed, computedAttributes, scopes } = definition;
  if (slug === ABILITY_OPTIONS.anySubjectType) return `"${slug}" is CASL's name for every resource, so no permission can name it`;
  const badScope = Object.entries(scopes).find(([, scope]) => scope.argument !== null && !SCOPE_ARGUMENTS.includes(scope.argument));
  if (badScope) return `scope "${badScope[0]}" has unknown argument type ${String(badScope[1].argument)}`;
  const shadowing = Object.keys(computedAttributes).find((name) => Object.hasOwn(attributes, name));
  if (shadowing !== undefined) return `computed attribute "${shadowing}" is also an attribute`;
  for (const [name, { uses }] of Object.entries(computedAttributes)) {
    const unknown = uses.find((use) => !Object.hasOwn(attributes, use));
    if (unknown !== undefined) return `computed attribute "${name}" use "${unknown}" is not a registered attribute`;
  }
  const lists: Record<string, readonly string[]> = {
    fillable: definition.fillable,
    hidden: definition.hidden,
    filters: definition.filters,
    sorts: definition.sorts,
    search: definition.search,
    defaultSort: [definition.defaultSort.replace(/^-/, '')],
    authorColumn: definition.authorColumn ? [definition.authorColumn] : [],
    'owner.foreignKey': definition.owner ? [definition.owner.foreignKey] : [],
    ...Object.fromEntries(Object.entries(relations).map(([name, relation]) => [`relations.${name}.foreignKey`, relation.kind === 'belongsTo' ? [relation.foreignKey] : []])),
    ...Object.fromEntries(Object.entries(computed).map(([name, aggregate]) => [`computed.${name}`, [...(aggregate.column ? [aggregate.column] : []), ...Object.keys(aggregate.where ?? {})]])),
  };
  for (const [option, names] of Object.entries(lists)) {
    const unknown = names.find((name) => !Object.hasOwn(attributes, name));
    if (unknown !== undefined) return `${option}: "${unknown}" is not a registered attribute`;
  }
  if (definition.softDeletes && !Object.hasOwn(attributes, 'deleted_at')) return 'soft deletes need a deleted_at attribute';
  const columnless = Object.entries(computed).find(([, aggregate]) => aggregate.fn !== 'count' && !aggregate.column);
  return columnless && `computed.${columnless[0]}: ${columnless[1].fn} needs a column`;
}

/**
 * Checks a registration once, at startup, and fills in its defaults: every identifier that can
 * reach SQL must be a plain name declared here, so request input is only ever matched against
 * this whitelist. A problem is a ModelDefinitionError naming the model and the option.
 */
export function defineModel(options: ModelOptions): ModelDefinition {
  const given = (options as { slug?: unknown } | null)?.slug;
  const slug = typeof given === 'string' ? given : '(without a slug)';
  const parsed = modelOptionsSchema.safeParse(options);
  if (!parsed.success) throw new ModelDefinitionError(slug, optionProblem(parsed.error, options));
  const { validation, ...checked } = parsed.data;
  const definition: ModelDefinition = {
    ...checked,
    table: checked.table ?? slug.replaceAll('-', '_'),
    attributes: { id: 'integer', ...checked.attributes },
    owner: checked.owner,
    authorColumn: checked.authorColumn,
    recordScope: checked.recordScope,
    validation: validation && { create: validation.create, update: validation.update ?? updateSchema(validation.create) },
  };
  const problem = inconsistency(definition);
  if (problem) throw new ModelDefinitionError(slug, problem);
  return Object.freeze(definition);
}
