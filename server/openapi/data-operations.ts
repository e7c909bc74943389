import type { ModelDefinition } from '../models/define-model.js';
import { ENDPOINT_PARAMETERS } from '../listing/endpoint-parameters.js';
import { BASE_NESTED_ROUTE, type DataAnswer, type DataRoute } from '../routes/data-routes.js';
import type { PlacedDataRoute, PlacedNestedRoute } from '../routes/placed-route.js';
import { listOf, ref } from '../routes/response-schemas.js';
import type { JsonSchema, ResponseDescription } from '../routes/route-definition.js';
import { pathParameters } from './path-parameters.js';
import { json, responses } from './responses.js';
import { operationId, type Operation } from './route-operation.js';
import { bodySchema } from './zod-schemas.js';

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

/** Groups without auth serve anyone. */
const openSecurity = (placed: PlacedDataRoute | PlacedNestedRoute) => (placed.group.auth ? {} : { security: [] });

/** A generic data endpoint as one model's operation, at the path with the model's slug in it. */
export function dataOperation(placed: PlacedDataRoute, model: ModelDefinition, path: string): Operation {
  const { route } = placed;
  const body = requestBody(route, model);
  return {
    operationId: operationId(placed, `${model.slug}.${route.operation}`),
    summary: route.summary(model.slug),
    tags: [model.slug],
    parameters: [...pathParameters(path), ...ENDPOINT_PARAMETERS[route.query].flatMap((parameter) => parameter.document(model))],
    ...(body ? { requestBody: body } : {}),
    responses: responses({ [route.status]: answerOf(route.answer, model) }, placed.errors),
    ...openSecurity(placed),
  };
}

/** `POST {dataBase}/nested`. */
export function nestedOperation(placed: PlacedNestedRoute, path: string): Operation {
  return {
    operationId: operationId(placed, 'nested'),
    summary: BASE_NESTED_ROUTE.summary,
    tags: ['nested'],
    parameters: pathParameters(path),
    requestBody: requestBody(BASE_NESTED_ROUTE, null),
    responses: responses({ [BASE_NESTED_ROUTE.status]: answerOf('nested', null) }, placed.errors),
    ...openSecurity(placed),
  };
}
