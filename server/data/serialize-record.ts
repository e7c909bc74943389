import { readableAttributeFilter } from '@gatehouse/engine';
import type { ModelDefinition } from '../models/define-model.js';
import type { IncludedRelations } from '../query/load-includes.js';
import type { LooseRow } from '../query/loose-schema.js';
import type { DataContext } from './data-context.js';

export type AttributeReader = (values: LooseRow) => LooseRow;

export interface RecordSerializer {
  /** One record as the caller may see it, with its included relations serialized the same way. */
  serialize(model: ModelDefinition, row: LooseRow): LooseRow;
  /** The model's read gate alone, for values that are not a row (audit entries). */
  reader(model: ModelDefinition): AttributeReader;
}

export interface SerializeOptions {
  /** `fields[slug]` of the request; the key always stays so clients can address the record. */
  fields?: Record<string, string[]>;
  included?: IncludedRelations;
}

/**
 * Only declared, non-hidden columns leave (an undeclared column such as a password hash never
 * does); the policy's read gate then narrows and strips them. Each model's policy is asked once
 * per serializer, however many rows pass through.
 */
export function recordSerializer(context: DataContext, { fields = {}, included }: SerializeOptions = {}): RecordSerializer {
  const readers = new Map<ModelDefinition, AttributeReader>();
  const reader = (model: ModelDefinition): AttributeReader => {
    let read = readers.get(model);
    if (!read) {
      const gate = readableAttributeFilter(context.policyFor(model), context.user);
      const exposed = (name: string) => Object.hasOwn(model.attributes, name) && !model.hidden.includes(name);
      read = (values) => gate(Object.fromEntries(Object.entries(values).filter(([name]) => exposed(name)))) as LooseRow;
      readers.set(model, read);
    }
    return read;
  };
  const serialize = (model: ModelDefinition, row: LooseRow): LooseRow => {
    let record = reader(model)(row);
    const requested = fields[model.slug];
    if (requested) record = Object.fromEntries(Object.entries(record).filter(([name]) => name === 'id' || requested.includes(name)));
    for (const [name, { target, value }] of Object.entries(included?.get(row) ?? {})) {
      record[name] = Array.isArray(value) ? value.map((child) => serialize(target, child)) : value && serialize(target, value);
    }
    return record;
  };
  return { serialize, reader };
}
