import { z } from 'zod';
import { id, text } from '../http/fields.js';
import { ValidationError } from '../http/errors/validation-error.js';
import { validate } from '../http/validate.js';
import type { LooseRow } from '../query/loose-schema.js';
import type { DataContext } from './data-context.js';
import { requireObjectBody } from './validate-body.js';
import { destroyRecord, storeRecord, updateRecord } from './write-actions.js';

export const MAX_NESTED_OPERATIONS = 50;

const ACTIONS = ['create', 'update', 'delete'] as const;
type NestedAction = (typeof ACTIONS)[number];

const target = { model: text('model', 100).optional() };
const data = z.record(z.string(), z.unknown(), {
  error: (issue) => (issue.input === undefined ? 'The data field is required.' : 'The data field must be an object.'),
});

const operationSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ ...target, action: z.literal('create'), data }),
    z.object({ ...target, action: z.literal('update'), id: id('id'), data }),
    z.object({ ...target, action: z.literal('delete'), id: id('id') }),
  ],
  { error: `The action field must be one of: ${ACTIONS.join(', ')}.` },
);

const bodySchema = z.object({
  operations: z
    .array(operationSchema, { error: 'The operations field must be a list.' })
    .min(1, 'The operations field must not be empty.')
    .max(MAX_NESTED_OPERATIONS, `At most ${MAX_NESTED_OPERATIONS} operations are allowed.`),
});

export interface NestedResult {
  model: string;
  action: NestedAction;
  id: number;
  /** The record as the caller may see it; null after a delete. */
  data: LooseRow | null;
}

/**
 * Runs the operations in order inside the request's one transaction, each through the same gates
 * as its single endpoint; the first failure aborts the request and so rolls all of them back.
 * `defaultModel` is the model of `{model}/nested`, for operations that name none.
 */
export async function runNestedOperations(context: DataContext, rawBody: unknown, defaultModel?: string): Promise<NestedResult[]> {
  const { operations } = validate(bodySchema, requireObjectBody(rawBody));
  const results: NestedResult[] = [];
  for (const [index, operation] of operations.entries()) {
    const slug = operation.model ?? defaultModel;
    if (slug === undefined) throw ValidationError.field(`operations.${index}.model`, 'The model field is required.');
    const model = context.model(slug);
    const options = { errorPrefix: `operations.${index}.` };
    if (operation.action === 'create') {
      const data = await storeRecord(context, model, operation.data, options);
      results.push({ model: slug, action: 'create', id: data.id as number, data });
    } else if (operation.action === 'update') {
      const data = await updateRecord(context, model, operation.id, operation.data, options);
      results.push({ model: slug, action: 'update', id: data.id as number, data });
    } else {
      await destroyRecord(context, model, operation.id);
      results.push({ model: slug, action: 'delete', id: operation.id, data: null });
    }
  }
  return results;
}
