import { permittedAttributesFor, type WriteOperation, type WritePolicy } from '../gating/write-list.js';
import type { PolicyUser } from '../policy/policy-context.js';
import { ResourcePolicy } from '../policy/resource-policy.js';
import { definingClass, policyMethodName } from './policy-method-name.js';

export interface FieldsExplanation {
  readonly allowed: boolean;
  /** The fields refused, in the order asked. */
  readonly fields: string[];
  /** The policy's write list; null allows every field. */
  readonly permitted: string[] | null;
  /** `PostPolicy.permittedAttributesForCreate` when its list refused any of the fields, else null. */
  readonly policy: string | null;
}

/**
 * Which of `fields` the caller may not write, and the policy method whose list refused them.
 * `writable`, when given, is what the application lets anyone write (a model's fillable fields):
 * a field outside it is refused whatever the policy says, and does not blame the policy.
 */
export function explainFields(
  policy: WritePolicy,
  user: PolicyUser | null,
  fields: Iterable<string>,
  operation: WriteOperation,
  writable?: readonly string[],
): FieldsExplanation {
  const permitted = permittedAttributesFor(policy, user, operation);
  const inList = (field: string) => permitted === null || permitted.includes(field);
  const refused = [...fields].filter((field) => !inList(field) || (writable !== undefined && !writable.includes(field)));
  const blamed = refused.some((field) => !inList(field));
  return { allowed: refused.length === 0, fields: refused, permitted, policy: blamed ? writeListMethod(policy, operation) : null };
}

// An update without a list of its own uses the create list (`ResourcePolicy`'s default), so that is the method to name.
function writeListMethod(policy: WritePolicy, operation: WriteOperation): string {
  const updateList = operation === 'update' && definingClass(policy, 'permittedAttributesForUpdate') !== ResourcePolicy;
  return policyMethodName(policy, updateList ? 'permittedAttributesForUpdate' : 'permittedAttributesForCreate');
}
