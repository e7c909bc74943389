import { SERVER_OWNED } from '../data/writable-fields.js';
import type { RecordSerializer } from '../data/serialize-record.js';
import type { ModelDefinition } from '../models/define-model.js';

/**
 * Per model slug, the fields whose change makes an audit row worth showing the caller: those
 * their read gate lets through, less the keys the server changes along with any update (an
 * `updated_at` alone would tell that a hidden field changed).
 */
export function readableChanges(serializer: RecordSerializer, models: readonly ModelDefinition[]): Map<string, string[]> {
  return new Map(models.map((model) => [model.slug, changeFields(serializer.readable(model))]));
}

/** Of the fields `readable`, those whose change makes an audit row worth showing (see readableChanges). */
export const changeFields = (readable: Iterable<string>): string[] => [...readable].filter((name) => !SERVER_OWNED.includes(name));
