import { toJSONSchema, type ZodType } from 'zod';
import type { JsonSchema } from '../routes/route-definition.js';

/** A zod schema as the JSON Schema of what a client sends. */
export function bodySchema(schema: ZodType): JsonSchema {
  const converted = toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete converted.$schema;
  return converted;
}

/** A zod object of strings as query parameters. */
export function queryParameters(schema: ZodType | undefined): JsonSchema[] {
  if (!schema) return [];
  const { properties = {}, required = [] } = bodySchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: 'query', required: required.includes(name), ...(description ? { description } : {}), schema: rest };
  });
}
