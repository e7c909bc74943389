import { toJSONSchema, type ZodType } from 'zod';
import type { AttributeType, ModelDefinition } from '../models/define-model.js';
import { REFERENCE } from '../data/nested-references.js';
import { ENDPOINT_QUERIES, type QueryKind } from '../query/endpoint-queries.js';

export interface OpenApiGroup {
  /** Data base with OpenAPI path templating, such as `/api/{organization}` or `/api/admin`. */
  base: string;
  models: readonly ModelDefinition[];
  /** The host pattern of a domain group (`{organization}.example.test`): its paths answer only there. */
  host?: string | null;
  /** Whether the server answers `method path` (path below the base) with a route of its own first. */
  answeredElsewhere?: (method: string, path: string) => boolean;
}

type JsonObject = Record<string, unknown>;

const ATTRIBUTE_SCHEMAS: Record<AttributeType, JsonObject> = {
  integer: { type: 'integer' },
  number: { type: 'number' },
  string: { type: ['string', 'null'] },
  boolean: { type: 'boolean' },
  timestamp: { type: ['string', 'null'], format: 'date-time' },
  'string[]': { type: 'array', items: { type: 'string' } },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonObject) => ({ content: { 'application/json': { schema } } });
const error = (description: string) => ({ description, ...json(ref('Error')) });
const pathParameter = (name: string) => ({ name, in: 'path', required: true, schema: name === 'id' ? { type: 'integer', minimum: 1 } : { type: 'string' } });

function recordSchema(model: ModelDefinition): JsonObject {
  const visible = Object.entries(model.attributes).filter(([name]) => !model.hidden.includes(name));
  return {
    type: 'object',
    description: 'Fields the caller may not read are left out; computed attributes only when asked for.',
    properties: Object.fromEntries([...visible, ...Object.entries(model.computedAttributes).map(([name, { type }]) => [name, type] as const)].map(([name, type]) => [name, ATTRIBUTE_SCHEMAS[type]])),
    required: ['id'],
  };
}

function bodySchema(schema: ZodType | undefined): JsonObject {
  return schema ? (toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject) : { type: 'object' };
}

const queryParameters = (kind: QueryKind, model: ModelDefinition) => ENDPOINT_QUERIES[kind].flatMap((parameter) => parameter.document(model));

const PAGE_HEADERS = Object.fromEntries(['X-Current-Page', 'X-Last-Page', 'X-Per-Page', 'X-Total'].map((name) => [name, { schema: { type: 'integer' } }]));

const COMMON_ERRORS = {
  400: error('A malformed id or an unknown query name.'),
  401: error('Not signed in.'),
  403: error('The policy, a field rule or an include rule refused the request.'),
  404: error('Unknown model, or a record outside the caller’s reach.'),
};

function modelPaths(base: string, model: ModelDefinition): Record<string, JsonObject> {
  const tag = [model.slug];
  const record = ref(model.slug);
  const list = { description: 'One page', headers: PAGE_HEADERS, ...json({ type: 'object', properties: { data: { type: 'array', items: record } } }) };
  const withParameters = (path: string) => [...(base + path).matchAll(/\{([a-z_]+)\}/g)].map((match) => pathParameter(match[1]!));
  const operation = (path: string, summary: string, responses: JsonObject, extra: JsonObject = {}) => ({
    tags: tag,
    summary,
    parameters: [...withParameters(path), ...((extra.parameters as unknown[]) ?? [])],
    ...(extra.requestBody ? { requestBody: extra.requestBody } : {}),
    responses: { ...responses, ...COMMON_ERRORS },
  });
  const body = (schema: ZodType | undefined) => ({ required: true, ...json(bodySchema(schema)) });
  const invalid = { 422: { description: 'Validation failed.', ...json(ref('ValidationError')) } };
  const paths: Record<string, JsonObject> = {
    [`${base}/${model.slug}`]: {
      get: operation('', `List ${model.slug}`, { 200: list }, { parameters: queryParameters('index', model) }),
      post: operation('', `Create a ${model.slug} record`, { 201: { description: 'Created', ...json(record) }, ...invalid }, { requestBody: body(model.validation?.create) }),
    },
    [`${base}/${model.slug}/{id}`]: {
      get: operation('/{id}', `Show a ${model.slug} record`, { 200: { description: 'The record', ...json(record) } }, { parameters: queryParameters('show', model) }),
      put: operation('/{id}', `Update a ${model.slug} record`, { 200: { description: 'Updated', ...json(record) }, ...invalid }, { requestBody: body(model.validation?.update) }),
      patch: operation('/{id}', `Update a ${model.slug} record`, { 200: { description: 'Updated', ...json(record) }, ...invalid }, { requestBody: body(model.validation?.update) }),
      delete: operation('/{id}', `Delete a ${model.slug} record`, { 204: { description: 'Deleted' } }),
    },
    [`${base}/${model.slug}/computed`]: {
      get: operation('/computed', `Aggregates over ${model.slug}`, {
        200: { description: 'Declared aggregates', ...json({ type: 'object', properties: Object.fromEntries(Object.keys(model.computed).map((name) => [name, { type: ['number', 'null'] }])) }) },
      }, { parameters: queryParameters('computed', model) }),
    },
    [`${base}/${model.slug}/nested`]: {
      post: operation('/nested', 'Several writes, all or nothing', { 200: { description: 'Results in order', ...json(ref('NestedResults')) }, ...invalid }, { requestBody: { required: true, ...json(ref('NestedOperations')) } }),
    },
  };
  if (model.audit) {
    paths[`${base}/${model.slug}/{id}/audit`] = {
      get: operation('/{id}/audit', `Audit trail of a ${model.slug} record`, {
        200: { description: 'Oldest first, one page', headers: PAGE_HEADERS, ...json({ type: 'object', properties: { data: { type: 'array', items: ref('AuditEntry') } } }) },
      }, { parameters: queryParameters('audit', model) }),
    };
  }
  if (model.softDeletes) {
    paths[`${base}/${model.slug}/trashed`] = {
      get: operation('/trashed', `List deleted ${model.slug}`, { 200: list }, { parameters: queryParameters('index', model) }),
    };
    paths[`${base}/${model.slug}/{id}/restore`] = {
      post: operation('/{id}/restore', `Restore a deleted ${model.slug} record`, { 200: { description: 'Restored', ...json(record) } }),
    };
    paths[`${base}/${model.slug}/{id}/force-delete`] = {
      delete: operation('/{id}/force-delete', `Delete a ${model.slug} record for good`, { 204: { description: 'Deleted' } }),
    };
  }
  return paths;
}

const SHARED_SCHEMAS = {
  Error: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  ValidationError: {
    type: 'object',
    properties: { message: { type: 'string' }, errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
    required: ['message', 'errors'],
  },
  AuditEntry: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      action: { enum: ['created', 'updated', 'deleted', 'restored', 'force_deleted'] },
      old_values: { type: ['object', 'null'] },
      new_values: { type: ['object', 'null'] },
      user_id: { type: ['integer', 'null'] },
      created_at: { type: 'string', format: 'date-time' },
    },
  },
  NestedOperations: {
    type: 'object',
    properties: {
      operations: {
        type: 'array',
        minItems: 1,
        maxItems: 50,
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

function hostServers(host: string): JsonObject[] {
  const variables = host.includes('{organization}') ? { organization: { default: 'organization', description: 'The organization slug.' } } : undefined;
  return [{ url: `https://${host}`, ...(variables ? { variables } : {}) }];
}

/** The group's paths, less the operations its other routes answer, on its own host. */
function groupPaths(group: OpenApiGroup): Record<string, JsonObject> {
  const paths: Record<string, JsonObject> = Object.assign(
    {
      [`${group.base}/nested`]: {
        post: {
          summary: 'Several writes across models, all or nothing',
          requestBody: { required: true, ...json(ref('NestedOperations')) },
          responses: { 200: { description: 'Results in order', ...json(ref('NestedResults')) } },
        },
      },
    },
    ...group.models.map((model) => modelPaths(group.base, model)),
  );
  for (const [path, item] of Object.entries(paths)) {
    const below = path.slice(group.base.length);
    const kept = Object.fromEntries(Object.entries(item).filter(([method]) => !group.answeredElsewhere?.(method, below)));
    if (Object.keys(kept).length === 0) delete paths[path];
    else paths[path] = group.host ? { servers: hostServers(group.host), ...kept } : kept;
  }
  return paths;
}

/** An OpenAPI 3.1 document of the data endpoints, generated from the registrations. */
export function buildOpenApi(info: { title: string; version: string }, groups: readonly OpenApiGroup[]): JsonObject {
  const models = new Map(groups.flatMap((group) => group.models.map((model) => [model.slug, model] as const)));
  return {
    openapi: '3.1.0',
    info,
    paths: Object.assign({}, ...groups.map(groupPaths)),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { ...SHARED_SCHEMAS, ...Object.fromEntries([...models].map(([slug, model]) => [slug, recordSchema(model)])) },
    },
    security: [{ bearer: [] }],
  };
}
