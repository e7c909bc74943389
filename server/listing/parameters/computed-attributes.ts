import { computedNames } from './computed-names.js';

/** `computed_attributes=a,b`: the model's per-record computed attributes to add to each record. */
export const computedAttributes = computedNames(
  'computed_attributes',
  'computedAttributes',
  (model) => model.computedAttributes,
  (names) => `Comma-separated computed attributes to add: ${names}.`,
);
