import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow } from '../query/loose-schema.js';
import type { Caller, DataPolicy } from './data-context.js';
import type { IncludedRelations } from '../query/load-includes.js';

/**
 * The attributes a caller may read: only declared, non-hidden columns (an undeclared column such
 * as a password hash never leaves), then the policy's whitelist narrows and its blacklist strips.
 * The key always stays, so clients can address the record. Used for records and audit values.
 */
export function readableAttributes(model: ModelDefinition, policy: DataPolicy, user: Caller | null, values: LooseRow): LooseRow {
  const permitted = policy.permittedAttributesForShow(user);
  const hidden = new Set([...model.hidden, ...(policy.hiddenAttributesForShow(user) ?? [])]);
  return Object.fromEntries(
    Object.entries(values).filter(
      ([name]) => name === 'id' || (Object.hasOwn(model.attributes, name) && !hidden.has(name) && (permitted === null || permitted.includes(name))),
    ),
  );
}

export interface SerializeOptions {
  policyFor(model: ModelDefinition): DataPolicy;
  user: Caller | null;
  /** `fields[slug]` of the request; the key is always kept so clients can address the record. */
  fields: Record<string, string[]>;
  included?: IncludedRelations;
}

/** One record as the caller may see it, with its included relations serialized the same way. */
export function serializeRecord(model: ModelDefinition, row: LooseRow, options: SerializeOptions): LooseRow {
  let record = readableAttributes(model, options.policyFor(model), options.user, row);
  const requested = options.fields[model.slug];
  if (requested) record = Object.fromEntries(Object.entries(record).filter(([name]) => name === 'id' || requested.includes(name)));
  for (const [name, { target, value }] of Object.entries(options.included?.get(row) ?? {})) {
    record[name] = Array.isArray(value)
      ? value.map((child) => serializeRecord(target, child, options))
      : value && serializeRecord(target, value, options);
  }
  return record;
}
