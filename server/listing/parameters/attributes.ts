import { computedNames } from './computed-names.js';

/** `attributes=a,b` on computed: only these of the model's declared aggregates. */
export const attributes = computedNames('attributes', 'aggregates', (model) => model.computed, (names) => `Comma-separated aggregates to compute, of: ${names}; all by default.`);
