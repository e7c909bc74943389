import type { AttributeType } from '../models/attribute-types.js';
import { isStoredInteger } from '../models/integer-range.js';
import { isIsoTimestamp } from '../models/iso-timestamp.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { ModelRegistry } from '../models/model-registry.js';
import type { Fixture, PolicyTestFile } from './policy-test-schema.js';
import type { LoadedPolicyTestFile } from './read-policy-test-file.js';

/** A fixture row with every attribute of its model: those it does not give are NULL, as in its table. */
export type FixtureRow = Readonly<Record<string, unknown>> & { readonly id: number };

/** A file's fixtures, checked against the models: rows by model slug, in the file's order. */
export type Fixtures = ReadonlyMap<string, readonly FixtureRow[]>;

/** The file's fixtures: their checked rows, and the records the policy and CASL read, relations attached (recordGraph). */
export interface FileRecords {
  readonly fixtures: Fixtures;
  readonly graph: Fixtures;
}

/** Whether a YAML value may be stored in an attribute of `type` (null always may). */
const TYPE_CHECKS: Record<AttributeType, { readonly holds: (value: unknown) => boolean; readonly name: string }> = {
  integer: { holds: (value) => typeof value === 'number' && isStoredInteger(value), name: 'an integer (32 bits)' },
  number: { holds: (value) => typeof value === 'number' && Number.isFinite(value), name: 'a number' },
  string: { holds: (value) => typeof value === 'string', name: 'a string' },
  boolean: { holds: (value) => typeof value === 'boolean', name: 'true or false' },
  timestamp: { holds: (value) => typeof value === 'string' && isIsoTimestamp(value), name: 'an ISO 8601 timestamp' },
  'string[]': { holds: (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'), name: 'a list of strings' },
};

/**
 * The file's `records`, each row checked against its model: a registered slug, an id given once,
 * attributes the model has, values of their types. A problem is the file's error at its key.
 */
export function checkFixtures(registry: ModelRegistry, records: PolicyTestFile['records'], problemAt: LoadedPolicyTestFile['problemAt']): Fixtures {
  const fixtures = new Map<string, FixtureRow[]>();
  for (const [slug, rows] of Object.entries(records ?? {})) {
    if (!registry.has(slug)) throw problemAt(['records', slug], `no registered model ${slug}`);
    const model = registry.get(slug);
    const seen = new Set<number>();
    fixtures.set(
      slug,
      rows.map((row, index) => {
        if (seen.has(row.id)) throw problemAt(['records', slug, index, 'id'], `id ${row.id} is given twice`);
        seen.add(row.id);
        return checkedRow(model, row, (key, problem) => problemAt(['records', slug, index, key], problem));
      }),
    );
  }
  return fixtures;
}

function checkedRow(model: ModelDefinition, row: Fixture, problem: (key: string, message: string) => Error): FixtureRow {
  for (const [key, value] of Object.entries(row)) {
    const type = Object.hasOwn(model.attributes, key) ? model.attributes[key]! : undefined;
    if (type === undefined) throw problem(key, `${key} is not an attribute of model ${model.slug}`);
    const check = TYPE_CHECKS[type];
    if (value !== null && !check.holds(value)) throw problem(key, `must be ${check.name} or null`);
  }
  return { ...Object.fromEntries(Object.keys(model.attributes).map((attribute) => [attribute, null])), ...row };
}

const isLive = (model: ModelDefinition, row: FixtureRow) => !model.softDeletes || row.deleted_at === null;

/**
 * The fixtures as the browser holds records with every relation included: a hasMany relation an
 * array of the related fixtures, a belongsTo one the related fixture or null, deleted related
 * rows left out as an include leaves them out. Records share their related objects, so the graph
 * is as deep as any condition reads, whatever its relations nest.
 */
export function recordGraph(registry: ModelRegistry, fixtures: Fixtures): Fixtures {
  const records = new Map([...fixtures].map(([slug, rows]) => [slug, rows.map((row): Record<string, unknown> & FixtureRow => ({ ...row }))]));
  for (const [slug, rows] of fixtures) {
    const model = registry.get(slug);
    for (const [index, row] of rows.entries()) {
      const record = records.get(slug)![index]!;
      for (const [name, relation] of Object.entries(model.relations)) {
        const target = registry.get(relation.model);
        const related = (records.get(target.slug) ?? []).filter((_, position) => isLive(target, fixtures.get(target.slug)![position]!));
        record[name] =
          relation.kind === 'hasMany'
            ? related.filter((candidate) => candidate[relation.foreignKey] === row.id)
            : (related.find((candidate) => row[relation.foreignKey] !== null && candidate.id === row[relation.foreignKey]) ?? null);
      }
    }
  }
  return records;
}
