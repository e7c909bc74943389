import type { ContextRef, Scalar } from './condition-tree.js';

/** A value as a policy writes it: a literal, `null` (a null check) or `{ context: 'user.id' }`. */
export type DeclaredValue = Scalar | null | ContextRef;

/** The tests of one attribute: a bare value means `eq` (or `null: true` for `null`). */
export interface DeclaredTests {
  readonly eq?: DeclaredValue;
  readonly ne?: DeclaredValue;
  readonly lt?: DeclaredValue;
  readonly lte?: DeclaredValue;
  readonly gt?: DeclaredValue;
  readonly gte?: DeclaredValue;
  readonly in?: readonly DeclaredValue[];
  readonly nin?: readonly DeclaredValue[];
  readonly null?: boolean;
}

export interface DeclaredQuantifier {
  readonly some?: RecordCondition;
  readonly none?: RecordCondition;
  readonly every?: RecordCondition;
}

/**
 * A record condition as a policy declares it: each key an attribute (its tests), a relation
 * (`some`/`none`/`every` of a condition on the related model) or `and`/`or`/`not`; the keys of
 * one object must all hold.
 */
export interface RecordCondition {
  readonly and?: readonly RecordCondition[];
  readonly or?: readonly RecordCondition[];
  readonly not?: RecordCondition;
  readonly [attributeOrRelation: string]: DeclaredValue | DeclaredTests | DeclaredQuantifier | readonly RecordCondition[] | RecordCondition | undefined;
}

/** A policy's named conditions: `{ own: { author_id: { context: 'user.id' } } }`. */
export type RecordConditions = Readonly<Record<string, RecordCondition>>;
