import { buildMongoQueryMatcher, createMongoAbility, type AnyMongoAbility, type ConditionsMatcher, type RawRuleOf } from '@casl/ability';
import { $and, $nor, $or, and, FieldCondition, nor, or, type FieldInstruction, type MongoQuery } from '@ucast/mongo2js';

/**
 * CASL's `$elemMatch`, except that its query is always read as a whole condition on the element:
 * CASL's own reads `{ $nor: [...] }` there as operators on a primitive element and refuses it,
 * and a relation's `every` needs exactly that (`none` of the elements failing).
 */
const $elemMatch: FieldInstruction<MongoQuery> = {
  type: 'field',
  validate(instruction, value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`"${instruction.name}" expects a condition object`);
  },
  parse: (instruction, value, { parse, field }) => new FieldCondition(instruction.name, field, parse(value)),
};

/**
 * The conditions matcher of every Gatehouse ability, on the server and in the browser: CASL's
 * default MongoDB operators with the compound `$and`, `$or` and `$nor` that record conditions
 * compile to. Interpreted by @ucast/js, the interpreters CASL itself uses.
 */
export const conditionsMatcher: ConditionsMatcher<MongoQuery> = buildMongoQueryMatcher({ $and, $or, $nor, $elemMatch }, { and, or, nor });

/** `createMongoAbility` with the Gatehouse conditions matcher. */
export function createConditionedAbility<T extends AnyMongoAbility>(rules: RawRuleOf<T>[]): T {
  return createMongoAbility<T>(rules, { conditionsMatcher } as never);
}
