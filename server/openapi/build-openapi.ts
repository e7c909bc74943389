import { PAGE_HEADERS } from '@gatehouse/engine/wire';
import { toJSONSchema, type ZodType } from 'zod';
import { AUDIT_ACTIONS } from '../audit/record-audit.js';
import { BASE_NESTED_ROUTE, DATA_ROUTES, modelHas, type DataAnswer, type DataRoute } from '../routes/data-routes.js';
import { MAX_NESTED_OPERATIONS } from '../data/nested-operations.js';
import type { AttributeType, ModelDefinition } from '../models/define-model.js';
import { REFERENCE } from '../data/nested-references.js';
import type { ModelRegistry } from '../models/model-registry.js';
import { ENDPOINT_QUERIES } from '../query/endpoint-queries.js';
import { dataBases, type RouteGroup } from '../models/route-group.js';
import { COMPONENT_SCHEMAS, listOf, ref } from '../routes/response-schemas.js';
import type { JsonSchema, ResponseDescription, RouteDescription } from '../routes/route-definition.js';
import { groupRouteSets } from '../routes/route-sets.js';
import { SERVICE_ROUTES } from '../routes/service-routes.js';
import { DOCUMENT_DESCRIPTIONS } from './document-descriptions.js';

export interface OpenApiSource {
  title: string;
  version: string;
  basePath: string;
  groups: readonly RouteGroup[];
  /** The registered models; none when the data routes are the application's own. */
  models: ModelRegistry | undefined;
}

type Operation = JsonSchema;
type Paths = Record<string, Record<string, Operation | JsonSchema[]>>;

const ATTRIBUTE_SCHEMAS: Record<AttributeType, JsonSchema> = {
  integer: { type: 'integer' },
  number: { type: 'number' },
  string: { type: ['string', 'null'] },
  boolean: { type: 'boolean' },
  timestamp: { type: ['string', 'null'], format: 'date-time' },
  'string[]': { type: 'array', items: { type: 'string' } },
};

const ERROR_MEANINGS: Record<number, string> = {
  400: 'Malformed request: a NUL character, a bad id, an unknown query name, a bad sort, filter, field or include.',
  401: 'Not signed in, or the session ended.',
  403: 'Refused: not a member of the route group, the policy, a field the caller may not set, or an include.',
  404: 'No such route, organization or record within the caller’s reach.',
  413: 'The body is larger than the configured limit.',
  415: 'The body is not JSON.',
  422: 'Validation failed.',
  429: 'Too many attempts; retry after `Retry-After` seconds.',
  503: 'The database cannot be reached.',
};

const ERROR_BODIES: Record<number, string> = { 403: 'Forbidden', 422: 'ValidationError' };
// The pipeline refuses these before any route runs (a NUL character in the query, a request
// without a Host header), so every operation can answer them.
const PIPELINE_ERRORS = [400];

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const errorResponse = (status: number) => ({ description: ERROR_MEANINGS[status] ?? 'Error', content: json(ref(ERROR_BODIES[status] ?? 'Error')) });
const pageHeaders = Object.fromEntries(Object.values(PAGE_HEADERS).map((name) => [name, { description: 'Pagination', schema: { type: 'integer' } }]));

/** `/:organization/invitations/:id` → `/{organization}/invitations/{id}`. */
const template = (path: string) => path.replace(/:([a-z_]+)/gi, '{$1}');

function pathParameters(path: string): JsonSchema[] {
  return [...path.matchAll(/\{([a-z_]+)\}/gi)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: name === 'organization' ? 'The organization slug.' : name === 'id' ? 'The record id.' : undefined,
    schema: name === 'id' ? { type: 'integer', minimum: 1 } : { type: 'string' },
  }));
}

function bodySchema(schema: ZodType): JsonSchema {
  const converted = toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete converted.$schema;
  return converted;
}

function queryParameters(schema: ZodType | undefined): JsonSchema[] {
  if (!schema) return [];
  const { properties = {}, required = [] } = bodySchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: 'query', required: required.includes(name), ...(description ? { description } : {}), schema: rest };
  });
}

function responses(answers: Readonly<Record<number, ResponseDescription>>, errors: readonly number[]): JsonSchema {
  const described = Object.fromEntries(
    Object.entries(answers).map(([status, answer]) => [
      status,
      {
        description: answer.description,
        ...(answer.paged ? { headers: pageHeaders } : {}),
        ...(answer.contentType ? { content: { [answer.contentType]: { schema: { type: 'string' } } } } : answer.schema ? { content: json(answer.schema) } : {}),
      },
    ]),
  );
  return { ...described, ...Object.fromEntries([...new Set([...PIPELINE_ERRORS, ...errors])].sort().map((status) => [status, errorResponse(status)])) };
}

const SECURITY = { bearer: undefined, optional: [{}, { bearer: [] }], none: [] } as const;

/** A group's name in operationIds; the service's own routes have none. */
const operationId = (group: RouteGroup | null, id: string) => (group ? `${group.name}.${id}` : id);

function routeOperation(route: RouteDescription, path: string, group: RouteGroup | null, label = ''): Operation {
  const security = SECURITY[route.access];
  return {
    operationId: operationId(group, `${label}${route.operationId}`),
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    parameters: [...pathParameters(path), ...queryParameters(route.query)],
    ...(route.body ? { requestBody: { required: true, content: json(bodySchema(route.body)) } } : {}),
    responses: responses(route.responses, [...route.errors, ...(route.body ? [413, 415] : [])]),
    ...(security ? { security } : {}),
  };
}

function recordSchema(model: ModelDefinition): JsonSchema {
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

function answerOf(kind: DataAnswer, model: ModelDefinition | null): ResponseDescription {
  const record = model ? ref(model.slug) : { type: 'object' };
  const answers: Record<DataAnswer, ResponseDescription> = {
    list: { description: 'One page', paged: true, schema: listOf(record) },
    record: { description: 'The record', schema: record },
    none: { description: 'Done' },
    aggregates: {
      description: 'The declared aggregates',
      schema: { type: 'object', properties: Object.fromEntries(Object.keys(model?.computed ?? {}).map((name) => [name, { type: ['number', 'null'] }])) },
    },
    audit: { description: 'Oldest first, one page', paged: true, schema: listOf(ref('AuditEntry')) },
    nested: { description: 'One result per operation, in order', schema: ref('NestedResults') },
  };
  return answers[kind];
}

function requestBody(route: Pick<DataRoute, 'body'>, model: ModelDefinition | null): JsonSchema | undefined {
  if (!route.body) return undefined;
  const schema = route.body === 'nested' ? ref('NestedOperations') : model?.validation?.[route.body] ? bodySchema(model.validation[route.body]!) : { type: 'object' };
  return { required: true, content: json(schema) };
}

function dataOperation(route: DataRoute, model: ModelDefinition, path: string, group: RouteGroup, label: string): Operation {
  const body = requestBody(route, model);
  const errors = [400, ...(group.auth ? [401] : []), 403, 404, ...(body ? [413, 415, 422] : [])];
  return {
    operationId: operationId(group, `${label}${model.slug}.${route.operation}`),
    summary: route.summary(model.slug),
    tags: [model.slug],
    parameters: [...pathParameters(path), ...ENDPOINT_QUERIES[route.query].flatMap((parameter) => parameter.document(model))],
    ...(body ? { requestBody: body } : {}),
    responses: responses({ [route.status]: answerOf(route.answer, model) }, errors),
    ...(group.auth ? {} : { security: [] }),
  };
}

/** A domain group's paths answer only on its own host. */
function hostServers(host: string): JsonSchema[] {
  const variables = host.includes('{organization}') ? { organization: { default: 'acme', description: 'The organization slug.' } } : undefined;
  return [{ url: `https://${host}`, description: 'The group’s own host', ...(variables ? { variables } : {}) }];
}

class PathCollector {
  readonly paths: Paths = {};

  /** The first description of a method and path wins: a domain group's `/auth/*` repeats the plain set's shape. */
  add(path: string, method: string, operation: Operation, host: string | null): void {
    const item = (this.paths[path] ??= host ? { servers: hostServers(host) } : {});
    item[method] ??= operation;
  }
}

/**
 * Operation ids name the group, and `prefixed` for a group's second base (`/{group}/...`, the same
 * operations with the group in the path).
 */
const baseLabel = (bases: readonly string[], base: string) => (bases.indexOf(base) > 0 ? 'prefixed.' : '');

function describeGroup(collector: PathCollector, source: OpenApiSource, group: RouteGroup): void {
  const host = group.domain;
  const placed = groupRouteSets(group);
  const claimed = new Set<string>();
  for (const set of placed) {
    const label = baseLabel([...new Set(placed.filter((other) => other.routes === set.routes).map((other) => other.base))], set.base);
    for (const route of set.routes) {
      const path = template(`${source.basePath}${set.base}${set.prefix}${route.path}`);
      claimed.add(`${route.method} ${path}`);
      collector.add(path, route.method, routeOperation(route, path, group, label), host);
    }
  }
  if (source.models && group.models.length > 0) {
    for (const base of dataBases(group)) describeData(collector, source.models, group, `${source.basePath}${base}`, baseLabel(dataBases(group), base), claimed);
  }
}

function describeData(collector: PathCollector, registry: ModelRegistry, group: RouteGroup, fullBase: string, label: string, claimed: ReadonlySet<string>): void {
  const host = group.domain;
  const base = template(fullBase);
  const nestedPath = `${base}${BASE_NESTED_ROUTE.path}`;
  collector.add(
    nestedPath,
    BASE_NESTED_ROUTE.method,
    {
      operationId: operationId(group, `${label}nested`),
      summary: BASE_NESTED_ROUTE.summary,
      tags: ['nested'],
      parameters: pathParameters(nestedPath),
      requestBody: requestBody({ body: 'nested' }, null),
      responses: responses({ [BASE_NESTED_ROUTE.status]: answerOf('nested', null) }, [400, ...(group.auth ? [401] : []), 403, 404, 413, 415, 422]),
      ...(group.auth ? {} : { security: [] }),
    },
    host,
  );
  for (const slug of group.models) {
    const model = registry.get(slug);
    for (const route of DATA_ROUTES.filter((candidate) => modelHas(model, candidate))) {
      const path = template(`${base}${route.path.replace(':model', slug)}`);
      // The tenant-only operations answer first at their bases (`GET {t}/organizations`).
      if (!claimed.has(`${route.method} ${path}`)) collector.add(path, route.method, dataOperation(route, model, path, group, label), host);
    }
  }
}

const SHARED_DATA_SCHEMAS: Record<string, JsonSchema> = {
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

const TAGS: Record<string, string> = {
  service: 'The service itself: health, token key, this document.',
  auth: 'Sign in, sign out, register, passwords. `{authBase}/auth/*`: `/api`, or `/api/{group}` for a prefix group.',
  organizations: 'Organizations, their roles and the caller’s role (`{t}` is `/api/{organization}`), and the organizations model’s data endpoints.',
  invitations: 'Inviting members to an organization.',
  members: 'Members of an organization and its roles’ permissions, each operation behind its own permission.',
  nested: 'Several writes in one transaction.',
  decisions: 'Why a request is allowed or refused: explanations and the log of refusals.',
};

/**
 * An OpenAPI 3.1 document of the whole HTTP surface, from the same route sets the routers mount:
 * the service routes, each route group's auth, organization and tenant-only operations, and the
 * data endpoints of every model a group serves.
 */
export function buildOpenApi(source: OpenApiSource): JsonSchema {
  const collector = new PathCollector();
  for (const route of [...SERVICE_ROUTES, ...DOCUMENT_DESCRIPTIONS]) {
    const path = template(`${source.basePath}${route.path}`);
    collector.add(path, route.method, routeOperation(route, path, null), null);
  }
  for (const group of source.groups) describeGroup(collector, source, group);
  const models = source.models ? [...new Set(source.groups.flatMap((group) => group.models))].map((slug) => source.models!.get(slug)) : [];
  return {
    openapi: '3.1.0',
    info: {
      title: source.title,
      version: source.version,
      description: 'Every error answers `{message}`; validation errors (422) add `errors: {field: [messages]}`, refusals (403) `reason: {gate, permission?, policy?, fields?, include?}`. Paths under a route group’s other bases (`/api/{group}/...`) answer as the ones shown.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This Gatehouse service' }],
    tags: [
      ...Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      ...models.filter((model) => !(model.slug in TAGS)).map((model) => ({ name: model.slug, description: `The ${model.slug} model’s data endpoints.` })),
    ],
    paths: collector.paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'PASETO v4.public', description: 'The token from login or register.' } },
      schemas: { ...COMPONENT_SCHEMAS, ...SHARED_DATA_SCHEMAS, ...Object.fromEntries(models.map((model) => [model.slug, recordSchema(model)])) },
    },
    security: [{ bearer: [] }],
  };
}
