import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { ConditionNode, Operand } from '@gatehouse/engine';
import type { ModelDefinition } from '../models/define-model.js';

/** The related models a condition's relations reach. */
export type ModelLookup = (slug: string) => ModelDefinition;

type Predicate = RawBuilder<SqlBool>;

/**
 * A resolved record condition as a SQL predicate on the rows of `model`, named `alias` in the
 * statement. Every part is two-valued, so `not` and `none` answer on NULL exactly as the
 * in-memory check does: a test on a NULL attribute is false (`ne` and `nin` true), never NULL.
 * A relation is an EXISTS subquery on the related table (its live rows, under the same row-level
 * security), `every` being `not exists` of a row that fails: true on no rows at all.
 */
export function conditionSql(node: ConditionNode, model: ModelDefinition, lookup: ModelLookup, alias: string, depth = 0): Predicate {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  // Integers compare as bigint: a condition's value past the int4 range is then just unequal, not an error.
  const value = (attribute: string, operand: Operand) => (model.attributes[attribute] === 'integer' ? sql`${operand}::bigint` : sql`${operand}`);
  const known = (attribute: string, test: RawBuilder<unknown>): Predicate => sql<SqlBool>`(${test} and ${column(attribute)} is not null)`;
  const recurse = (part: ConditionNode) => conditionSql(part, model, lookup, alias, depth);
  switch (node.op) {
    case 'true':
      return sql<SqlBool>`true`;
    case 'false':
      return sql<SqlBool>`false`;
    case 'and':
      return sql<SqlBool>`(${sql.join(node.conditions.map(recurse), sql` and `)})`;
    case 'or':
      return sql<SqlBool>`(${sql.join(node.conditions.map(recurse), sql` or `)})`;
    case 'not':
      return sql<SqlBool>`(not ${recurse(node.condition)})`;
    case 'eq':
      return known(node.attribute, sql`${column(node.attribute)} = ${value(node.attribute, node.value)}`);
    case 'ne':
      return sql<SqlBool>`(${column(node.attribute)} is distinct from ${value(node.attribute, node.value)})`;
    case 'lt':
      return known(node.attribute, sql`${column(node.attribute)} < ${value(node.attribute, node.value)}`);
    case 'lte':
      return known(node.attribute, sql`${column(node.attribute)} <= ${value(node.attribute, node.value)}`);
    case 'gt':
      return known(node.attribute, sql`${column(node.attribute)} > ${value(node.attribute, node.value)}`);
    case 'gte':
      return known(node.attribute, sql`${column(node.attribute)} >= ${value(node.attribute, node.value)}`);
    case 'in':
      return known(node.attribute, sql`${column(node.attribute)} in (${sql.join(node.values.map((operand) => value(node.attribute, operand)))})`);
    case 'nin':
      return sql<SqlBool>`(${column(node.attribute)} is null or ${column(node.attribute)} not in (${sql.join(node.values.map((operand) => value(node.attribute, operand)))}))`;
    case 'null':
      return sql<SqlBool>`(${column(node.attribute)} is null)`;
    case 'not_null':
      return sql<SqlBool>`(${column(node.attribute)} is not null)`;
    default:
      return relationSql(node, model, lookup, alias, depth);
  }
}

function relationSql(node: Extract<ConditionNode, { relation: string }>, model: ModelDefinition, lookup: ModelLookup, alias: string, depth: number): Predicate {
  const relation = model.relations[node.relation]!;
  const target = lookup(relation.model);
  const related = `__related_${depth + 1}`;
  const joined =
    relation.kind === 'hasMany'
      ? sql`${sql.ref(`${related}.${relation.foreignKey}`)} = ${sql.ref(`${alias}.id`)}`
      : sql`${sql.ref(`${related}.id`)} = ${sql.ref(`${alias}.${relation.foreignKey}`)}`;
  const live = target.softDeletes ? sql` and ${sql.ref(`${related}.deleted_at`)} is null` : sql``;
  const exists = (inner: ConditionNode) =>
    sql<SqlBool>`exists (select 1 from ${sql.table(target.table)} as ${sql.id(related)} where ${joined}${live} and ${conditionSql(inner, target, lookup, related, depth + 1)})`;
  if (node.op === 'some') return exists(node.condition);
  if (node.op === 'none') return sql<SqlBool>`(not ${exists(node.condition)})`;
  return sql<SqlBool>`(not ${exists({ op: 'not', condition: node.condition })})`;
}
