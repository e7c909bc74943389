import type { ModelDefinition } from '../models/define-model.js';
import { readTypedValue } from '../models/typed-value.js';

/**
 * Form fields arrive as strings. Each attribute's field becomes its type where it reads as one,
 * so validation sees what a JSON body would carry; an empty field is null, as an emptied input
 * means. A field that does not read as its type stays a string for validation to refuse.
 */
export function coerceFormFields(model: ModelDefinition, body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => {
      if (typeof value !== 'string' || !Object.hasOwn(model.attributes, name)) return [name, value];
      return [name, value === '' ? null : (readTypedValue(model.attributes[name]!, value) ?? value)];
    }),
  );
}
