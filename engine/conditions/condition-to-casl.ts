import type { MongoQuery } from '@casl/ability';
import type { ConditionNode } from './condition-tree.js';
import type { ModelShape, ShapeLookup } from './model-shape.js';

/** Matches no record: `$in` over nothing. */
const NOTHING: MongoQuery = { id: { $in: [] } };

/**
 * A resolved condition as CASL's MongoDB query, read by `conditionsMatcher`. The null rules are
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
    case 'and':
      return { $and: node.conditions.map((part) => conditionToCasl(part, shape, lookup, prefix)) };
    case 'or':
      return { $or: node.conditions.map((part) => conditionToCasl(part, shape, lookup, prefix)) };
    case 'not':
      return { $nor: [conditionToCasl(node.condition, shape, lookup, prefix)] };
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
      return { [at(node.attribute)]: { $eq: null } };
    case 'not_null':
      return { [at(node.attribute)]: { $ne: null } };
    default:
      return relationToCasl(node, shape, lookup, prefix);
  }
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
