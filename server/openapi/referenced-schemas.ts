import { SCHEMA_REFERENCE } from '../routes/response-schemas.js';
import type { JsonSchema } from '../routes/route-definition.js';

const REFERENCES = new RegExp(`"\\$ref":"${SCHEMA_REFERENCE.replace(/[/#]/g, '\\$&')}([^"]+)"`, 'g');

const referencedNames = (value: unknown): string[] => [...JSON.stringify(value).matchAll(REFERENCES)].map(([, name]) => name!);

/**
 * The named schemas the paths use, directly or through other schemas. A service without models,
 * or whose groups serve no audit or nested routes, uses only some of them, and a schema nothing
 * refers to is a lint warning (`no-unused-components`) and noise in the reference.
 */
export function referencedSchemas(paths: unknown, schemas: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const used = new Set<string>();
  for (let pending = referencedNames(paths); pending.length > 0; ) {
    const fresh = pending.filter((name) => !used.has(name) && name in schemas);
    for (const name of fresh) used.add(name);
    pending = referencedNames(fresh.map((name) => schemas[name]));
  }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
}
