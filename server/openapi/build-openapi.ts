import type { ModelRegistry } from '../models/model-registry.js';
import type { RouteGroup } from '../models/route-group.js';
import { modelHas } from '../routes/data-routes.js';
import type { Placed } from '../routes/placed-route.js';
import { COMPONENT_SCHEMAS } from '../routes/response-schemas.js';
import type { JsonSchema } from '../routes/route-definition.js';
import { placeUngrouped, routeTable } from '../routes/route-table.js';
import { SERVICE_ROUTES } from '../routes/service-routes.js';
import { dataOperation, nestedOperation } from './data-operations.js';
import { DOCUMENT_DESCRIPTIONS } from './document-descriptions.js';
import { TAGS } from './document-tags.js';
import { PathCollector } from './path-collector.js';
import { template } from './path-parameters.js';
import { recordSchema, SHARED_DATA_SCHEMAS } from './record-schemas.js';
import { referencedSchemas } from './referenced-schemas.js';
import { routeOperation } from './route-operation.js';

export interface OpenApiSource {
  title: string;
  version: string;
  basePath: string;
  groups: readonly RouteGroup[];
  /** The registered models; none when the data routes are the application's own. */
  models: ModelRegistry | undefined;
}

/** One placed route's operations: a generic data route once per model of the group that has it. */
function describe(collector: PathCollector, placed: Placed, registry: ModelRegistry | undefined): void {
  const host = placed.group?.domain ?? null;
  if (placed.kind === 'route') collector.add(template(placed.path), placed.method, routeOperation(placed, template(placed.path)), host);
  if (placed.kind === 'nested') collector.add(template(placed.path), placed.method, nestedOperation(placed, template(placed.path)), host);
  if (placed.kind === 'data' && registry) {
    for (const model of placed.group.models.map((slug) => registry.get(slug)).filter((candidate) => modelHas(candidate, placed.route))) {
      const path = template(placed.path.replace(':model', model.slug));
      collector.add(path, placed.method, dataOperation(placed, model, path), host);
    }
  }
  // An application's own data router is not described: its routes are its own.
}

// A group's own spellings of its paths come before its `/{group}/...` ones, as the reference reads best.
const plainFirst = (routes: readonly Placed[]) => [...routes].sort((a, b) => Number(a.prefixed) - Number(b.prefixed));

/**
 * An OpenAPI 3.1 document of the whole HTTP surface, from the route table the server's matchers
 * read: the service routes, each route group's auth, organization and tenant-only operations, and
 * the data endpoints of every model a group serves.
 */
export function buildOpenApi(source: OpenApiSource): JsonSchema {
  const collector = new PathCollector();
  for (const placed of placeUngrouped([...SERVICE_ROUTES, ...DOCUMENT_DESCRIPTIONS], source.basePath)) {
    collector.add(template(placed.path), placed.method, routeOperation(placed, template(placed.path)), null);
  }
  for (const { routes } of routeTable(source).groups) for (const placed of plainFirst(routes)) describe(collector, placed, source.models);
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
      schemas: referencedSchemas(collector.paths, { ...COMPONENT_SCHEMAS, ...SHARED_DATA_SCHEMAS, ...Object.fromEntries(models.map((model) => [model.slug, recordSchema(model)])) }),
    },
    security: [{ bearer: [] }],
  };
}
