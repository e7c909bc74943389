import { AUDIT_ACTIONS } from '../audit/record-audit.js';
import { MAX_NESTED_OPERATIONS } from '../models/request-limits.js';
import { REFERENCE } from '../data/nested-references.js';
import type { AttributeType, ModelDefinition } from '../models/define-model.js';
import type { JsonSchema } from '../routes/route-definition.js';

const ATTRIBUTE_SCHEMAS: Record<AttributeType, JsonSchema> = {
  integer: { type: 'integer' },
  number: { type: 'number' },
  string: { type: ['string', 'null'] },
  boolean: { type: 'boolean' },
  timestamp: { type: ['string', 'null'], format: 'date-time' },
  'string[]': { type: 'array', items: { type: 'string' } },
};

/** A model's record as the data endpoints answer it: declared, unhidden attributes and computed ones. */
export function recordSchema(model: ModelDefinition): JsonSchema {
  const visible = Object.entries(model.attributes).filter(([name]) => !model.hidden.includes(name));
  return {
    type: 'object',
    description: `A ${model.slug} record. Fields the caller may not read are left out; computed attributes only when asked for.`,
    properties: {
      id: { type: 'integer' },
      ...Object.fromEntries([...visible, ...Object.entries(model.computedAttributes).map(([name, { type }]) => [name, type] as const)].map(([name, type]) => [name, ATTRIBUTE_SCHEMAS[type]])),
    },
    required: ['id'],
  };
}

/** The data endpoints' shapes that belong to no model: audit entries and nested writes. */
export const SHARED_DATA_SCHEMAS: Record<string, JsonSchema> = {
  AuditEntry: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      action: { enum: [...AUDIT_ACTIONS] },
      old_values: { type: ['object', 'null'] },
      new_values: { type: ['object', 'null'] },
      user_id: { type: ['integer', 'null'] },
      created_at: { type: 'string', format: 'date-time' },
    },
    required: ['id', 'action', 'created_at'],
  },
  NestedOperations: {
    type: 'object',
    properties: {
      operations: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_NESTED_OPERATIONS,
        items: {
          type: 'object',
          properties: {
            model: { type: 'string' },
            action: { enum: ['create', 'update', 'delete'] },
            id: { oneOf: [{ type: 'integer' }, { type: 'string', pattern: REFERENCE.source }] },
            data: { type: 'object', description: 'A value "$N.field" is that field of the result of earlier operation N.' },
          },
          required: ['action'],
        },
      },
    },
    required: ['operations'],
  },
  NestedResults: {
    type: 'array',
    description: 'One result per operation, in order: the record as the caller may see it, or {id, deleted: true}.',
    items: { type: 'object', properties: { id: { type: 'integer' }, deleted: { const: true } }, required: ['id'] },
  },
};
