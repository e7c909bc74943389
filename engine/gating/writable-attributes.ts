import { ForbiddenFieldsError } from '../errors/forbidden-fields-error.js';
import { explainFields, type FieldsExplanation } from '../explain/explain-fields.js';
import type { PolicyUser } from '../policy/policy-context.js';
import type { WriteOperation, WritePolicy } from './write-list.js';

/**
 * Throws `ForbiddenFieldsError` (403) naming, in request order, every field of `body` outside
 * `permitted`, and `policy`, the method whose list it is. A `null` list allows every field.
 */
export function assertPermittedFields(permitted: readonly string[] | null, body: Readonly<Record<string, unknown>>, policy?: string): void {
  if (permitted === null) return;
  const writable = new Set(permitted);
  const refused = Object.keys(body).filter((field) => !writable.has(field));
  if (refused.length > 0) throw new ForbiddenFieldsError(refused, policy);
}

/** Throws `ForbiddenFieldsError` (403) when the explanation refused fields. */
export function assertFieldsExplained({ allowed, fields, policy }: FieldsExplanation): void {
  if (!allowed) throw new ForbiddenFieldsError(fields, policy ?? undefined);
}

/** Throws `ForbiddenFieldsError` (403) for the fields of `body` outside the policy's write list for the operation. */
export function assertWritableAttributes(policy: WritePolicy, user: PolicyUser | null, body: Readonly<Record<string, unknown>>, operation: WriteOperation): void {
  assertFieldsExplained(explainFields(policy, user, Object.keys(body), operation));
}
