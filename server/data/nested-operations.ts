import { z } from 'zod';
import { id, text } from '../models/fields.js';
import { ValidationError } from '../errors/validation-error.js';
import { MAX_NESTED_OPERATIONS } from '../models/request-limits.js';
import { validate } from '../http/validate.js';
import type { LooseRow } from '../models/loose-schema.js';
import type { DataActionContext } from './data-action-context.js';
import { resolveReferences, resultReference } from './nested-references.js';
import { requireObjectBody } from './validate-body.js';
import { destroyRecord, storeRecord, updateRecord } from './write-actions.js';

export { MAX_NESTED_OPERATIONS };

const ACTIONS = ['create', 'update', 'delete'] as const;

const target = { model: text('model', 100).optional() };
const data = z.record(z.string(), z.unknown(), {
  error: (issue) => (issue.input === undefined ? 'The data field is required.' : 'The data field must be an object.'),
});
// The record of an update or delete may be the result of an earlier operation (`"$0.id"`).
const recordId = z.union([id('id'), resultReference], { error: (issue) => (issue.input === undefined ? 'The id field is required.' : 'The id field must be an integer.') });

const operationSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ ...target, action: z.literal('create'), data }),
    z.object({ ...target, action: z.literal('update'), id: recordId, data }),
    z.object({ ...target, action: z.literal('delete'), id: recordId }),
  ],
  { error: `The action field must be one of: ${ACTIONS.join(', ')}.` },
);

const bodySchema = z.object({
  operations: z
    .array(operationSchema, { error: 'The operations field must be a list.' })
    .min(1, 'The operations field must not be empty.')
    .max(MAX_NESTED_OPERATIONS, `At most ${MAX_NESTED_OPERATIONS} operations are allowed.`),
});

/** What an operation answers: the record as the caller may see it, or `{id, deleted: true}`. */
export type NestedResult = LooseRow;

/**
 * Runs the operations in order inside the request's one transaction, each through the same gates
 * as its single endpoint; the first failure aborts the request and so rolls all of them back.
 * `"$N.field"` values are read from the result of earlier operation N before the operation runs.
 * `defaultModel` is the model of `{model}/nested`, for operations that name none.
 */
export async function runNestedOperations(context: DataActionContext, rawBody: unknown, defaultModel?: string): Promise<NestedResult[]> {
  const { operations } = validate(bodySchema, requireObjectBody(rawBody));
  const results: NestedResult[] = [];
  for (const [index, written] of operations.entries()) {
    const slug = written.model ?? defaultModel;
    if (slug === undefined) throw ValidationError.field(`operations.${index}.model`, 'The model field is required.');
    const model = context.model(slug);
    const operation = resolveReferences(written, index, results);
    const options = { errorPrefix: `operations.${index}.` };
    if (operation.action === 'create') results.push(await storeRecord(context, model, operation.data, options));
    else if (operation.action === 'update') results.push(await updateRecord(context, model, operation.id, operation.data, options));
    else {
      await destroyRecord(context, model, operation.id);
      results.push({ id: operation.id, deleted: true });
    }
  }
  return results;
}
