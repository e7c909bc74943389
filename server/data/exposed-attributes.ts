import type { ModelDefinition } from '../models/define-model.js';

/** The declared, non-hidden attributes the read gate lets through: what a record may show. */
export function exposedAttributes(model: ModelDefinition, readable: (attribute: string) => boolean): string[] {
  return Object.keys(model.attributes).filter((name) => !model.hidden.includes(name) && readable(name));
}
