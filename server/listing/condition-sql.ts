import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { conditionSql as conditionPieces, type ConditionNode, type SqlPiece, type SqlTarget } from '@gatehouse/engine';
import type { ModelDefinition } from '../models/define-model.js';

/** The related models a condition's relations reach. */
export type ModelLookup = (slug: string) => ModelDefinition;

/** A model's rows as the engine's condition compiler reads them: attributes are its columns. */
function sqlTarget(model: ModelDefinition, lookup: ModelLookup): SqlTarget {
  return {
    table: model.table,
    softDeletes: model.softDeletes,
    column: (attribute) => attribute,
    integer: (attribute) => model.attributes[attribute] === 'integer',
    text: (attribute) => model.attributes[attribute] === 'string',
    relation(name) {
      const relation = model.relations[name]!;
      return { kind: relation.kind, foreignKey: relation.foreignKey, target: sqlTarget(lookup(relation.model), lookup) };
    },
  };
}

const rendered = (piece: SqlPiece): RawBuilder<unknown> => {
  if (typeof piece === 'string') return sql.raw(piece);
  if ('ref' in piece) return sql.ref(piece.ref.join('.'));
  if ('table' in piece) return sql.table(piece.table);
  if ('alias' in piece) return sql.id(piece.alias);
  return piece.integer ? sql`${piece.value}::bigint` : sql`${piece.value}`;
};

/**
 * A resolved record condition as a SQL predicate on the rows of `model`, named `alias` in the
 * statement: the engine's compiler (the one `@gatehouse/node` applies to `authorize`'s plans),
 * rendered by Kysely with its values as parameters.
 */
export function conditionSql(node: ConditionNode, model: ModelDefinition, lookup: ModelLookup, alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.join(conditionPieces(node, sqlTarget(model, lookup), alias).map(rendered), sql``)}`;
}
