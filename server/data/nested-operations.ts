import type { LooseRow } from '../query/loose-schema.js';
import type { DataContext } from './data-context.js';
import { ValidationFailedError } from './data-errors.js';
import { requireObjectBody } from './validate-body.js';
import { destroyRecord, storeRecord, updateRecord } from './write-actions.js';

export const MAX_NESTED_OPERATIONS = 50;

const ACTIONS = ['create', 'update', 'delete'] as const;
type NestedAction = (typeof ACTIONS)[number];

export interface NestedResult {
  model: string;
  action: NestedAction;
  id: unknown;
  /** The record as the caller may see it; null after a delete. */
  data: LooseRow | null;
}

function readOperations(rawBody: unknown): LooseRow[] {
  const { operations } = requireObjectBody(rawBody);
  if (!Array.isArray(operations) || operations.length === 0) throw new ValidationFailedError({ operations: ['The operations field must be a non-empty list.'] });
  if (operations.length > MAX_NESTED_OPERATIONS) {
    throw new ValidationFailedError({ operations: [`At most ${MAX_NESTED_OPERATIONS} operations are allowed.`] });
  }
  return operations.map((operation, index) => {
    const fields = requireObjectBody(operation);
    if (!ACTIONS.includes(fields.action as NestedAction)) {
      throw new ValidationFailedError({ [`operations.${index}.action`]: [`The action must be one of: ${ACTIONS.join(', ')}.`] });
    }
    return fields;
  });
}

/**
 * Runs the operations in order inside the request's one transaction, each through the same gates
 * as its single endpoint; the first failure aborts the request and so rolls all of them back.
 */
export async function runNestedOperations(context: DataContext, rawBody: unknown, defaultModel?: string): Promise<NestedResult[]> {
  const results: NestedResult[] = [];
  for (const [index, operation] of readOperations(rawBody).entries()) {
    const slug = typeof operation.model === 'string' ? operation.model : defaultModel;
    if (slug === undefined) throw new ValidationFailedError({ [`operations.${index}.model`]: ['The model field is required.'] });
    const model = context.model(slug);
    const action = operation.action as NestedAction;
    const errorPrefix = `operations.${index}.`;
    if (action === 'create') {
      const data = await storeRecord(context, model, operation.data, { errorPrefix });
      results.push({ model: slug, action, id: data.id, data });
    } else if (action === 'update') {
      const data = await updateRecord(context, model, operation.id, operation.data, { errorPrefix });
      results.push({ model: slug, action, id: data.id, data });
    } else {
      await destroyRecord(context, model, operation.id);
      results.push({ model: slug, action, id: operation.id, data: null });
    }
  }
  return results;
}
