import { z, type ZodType } from 'zod';
import { ATTRIBUTE_TYPES } from './attribute-types.js';
import { COUNT_MODES } from './count-mode.js';
import { AGGREGATES, type ComputedAttribute, type NamedScope, type Scope, type ScopeWithArgument } from './model-types.js';
import { MAX_PER_PAGE } from './request-limits.js';

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const identifier = z.string().regex(IDENTIFIER, { error: (issue) => `${JSON.stringify(issue.input)} is not a plain identifier` });
const identifiers = z.array(identifier);
const scope = z.custom<Scope>((value) => typeof value === 'function', { error: 'must be a function (query, context) => query' });
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
export const modelOptionsSchema = z.strictObject({
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
