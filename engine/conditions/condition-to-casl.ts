import type { MongoQuery } from '@casl/ability';
import type { ConditionNode } from './condition-tree.js';
import type { ModelShape, ShapeLookup } from './model-shape.js';

/** Matches no record: `$in` over nothing. */
const NOTHING: MongoQuery = { id: { $in: [] } };

/** The field operator that negates a test, where one does under the null rules below: `not (a = x)` is `a ≠ x`, NULL included. */
const NEGATED_TESTS: Partial<Record<ConditionNode['op'], string>> = { eq: '$ne', ne: '$eq', in: '$nin', nin: '$in' };

/**
 * A null check as field operators. On a list attribute CASL's `$eq: null` also holds for a list
 * that holds a NULL (`[null]`, `['a', null]`), where SQL's `is null` asks of the list itself; `$all:
 * []` holds exactly on a list, with CASL's default operators too, so a list is null when it fails.
 */
function nullTest(attribute: string, path: string, shape: ModelShape, isNull: boolean): MongoQuery {
  if (shape.attributes[attribute] !== 'string[]') return { [path]: { [isNull ? '$eq' : '$ne']: null } };
  const list: MongoQuery = { [path]: { $all: [] } };
  return isNull ? { $nor: [list] } : list;
}

const isOperators = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).every((key) => key.startsWith('$'));

/**
 * Parts that must all hold, as one query of plain field operators (`{ status: {...}, author_id:
 * {...} }`), the form CASL's default matcher reads; null when two parts test one field with
 * differing operands, which then need `$and`.
 */
function mergedParts(parts: readonly MongoQuery[]): MongoQuery | null {
  const merged: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      const kept = merged[key];
      if (kept === undefined) {
        merged[key] = value;
        continue;
      }
      if (key.startsWith('$') || !isOperators(kept) || !isOperators(value)) return null;
      if (Object.entries(value).some(([op, operand]) => Object.hasOwn(kept, op) && JSON.stringify(kept[op]) !== JSON.stringify(operand))) return null;
      merged[key] = { ...kept, ...value };
    }
  }
  return merged;
}

/**
 * A resolved condition as CASL's MongoDB query, read by `conditionsMatcher`; tests joined by `and`
 * and the `not` of one test come out as plain field operators, which CASL's default matcher reads
 * too. The null rules are
 * SQL's answered two-valued: an ordering is false on a null attribute (JavaScript would order
 * null as 0), `ne` and `nin` are true on it. A hasMany relation is an array of related records
 * (`$elemMatch`); a belongsTo one a nested record or null, its attributes reached by path.
 */
export function conditionToCasl(node: ConditionNode, shape: ModelShape, lookup: ShapeLookup, prefix = ''): MongoQuery {
  const at = (name: string) => prefix + name;
  switch (node.op) {
    case 'true':
      return {};
    case 'false':
      return NOTHING;
    case 'and': {
      const parts = node.conditions.map((part) => conditionToCasl(part, shape, lookup, prefix));
      return mergedParts(parts) ?? { $and: parts };
    }
    case 'or':
      return { $or: node.conditions.map((part) => conditionToCasl(part, shape, lookup, prefix)) };
    case 'not':
      return negatedTest(node.condition, shape, prefix) ?? { $nor: [conditionToCasl(node.condition, shape, lookup, prefix)] };
    case 'eq':
      return { [at(node.attribute)]: { $eq: node.value } };
    case 'ne':
      return { [at(node.attribute)]: { $ne: node.value } };
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return { [at(node.attribute)]: { $ne: null, [`$${node.op}`]: node.value } };
    case 'in':
      return { [at(node.attribute)]: { $in: node.values } };
    case 'nin':
      return { [at(node.attribute)]: { $nin: node.values } };
    case 'null':
    case 'not_null':
      return nullTest(node.attribute, at(node.attribute), shape, node.op === 'null');
    default:
      return relationToCasl(node, shape, lookup, prefix);
  }
}

/** `not` of one test, as the field operator that answers it: `not (a = x)` is `{ a: { $ne: x } }`; null for any other condition. */
function negatedTest(node: ConditionNode, shape: ModelShape, prefix: string): MongoQuery | null {
  if (node.op === 'null' || node.op === 'not_null') return nullTest(node.attribute, prefix + node.attribute, shape, node.op === 'not_null');
  const op = NEGATED_TESTS[node.op];
  if (op === undefined) return null;
  if ('values' in node) return { [prefix + node.attribute]: { [op]: node.values } };
  return 'value' in node ? { [prefix + node.attribute]: { [op]: node.value } } : null;
}

function relationToCasl(node: Extract<ConditionNode, { relation: string }>, shape: ModelShape, lookup: ShapeLookup, prefix: string): MongoQuery {
  const relation = shape.relations[node.relation]!;
  const target = lookup(relation.model)!;
  const path = prefix + node.relation;
  if (relation.kind === 'hasMany') {
    const some = (inner: ConditionNode): MongoQuery => ({ [path]: { $elemMatch: conditionToCasl(inner, target, lookup) } });
    if (node.op === 'some') return some(node.condition);
    if (node.op === 'none') return { $nor: [some(node.condition)] };
    return { $nor: [some({ op: 'not', condition: node.condition })] };
  }
  const inner = conditionToCasl(node.condition, target, lookup, `${path}.`);
  const some: MongoQuery = { $and: [{ [path]: { $ne: null } }, inner] };
  if (node.op === 'some') return some;
  if (node.op === 'none') return { $nor: [some] };
  return { $or: [{ [path]: { $eq: null } }, inner] };
}
