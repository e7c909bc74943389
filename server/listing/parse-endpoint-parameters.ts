import { InvalidQueryError } from '../errors/invalid-query-error.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { ModelRegistry } from '../models/model-registry.js';
import { ENDPOINT_PARAMETERS, type EndpointKind } from './endpoint-parameters.js';
import { defaultQuery, type ParsedQuery } from './parsed-query.js';
import { bounded, type QueryEntry, type QueryParameter, type RawQuery } from './query-parameter.js';

export type { EndpointKind } from './endpoint-parameters.js';
export type { RawQuery } from './query-parameter.js';

const NAME = /^([a-z_]+)(?:\[([^\]]*)\])?$/;

/** Sorts the query string's names to the accepted parameters; an unknown, misshapen or repeated name is a 400. */
function entriesByParameter(raw: RawQuery, parameters: readonly QueryParameter[]): Map<QueryParameter, QueryEntry[]> {
  const entries = new Map<QueryParameter, QueryEntry[]>();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const [, base, key = null] = NAME.exec(name) ?? [];
    const parameter = parameters.find((candidate) => candidate.name === base);
    if (!parameter || (parameter.keyed !== 'either' && (parameter.keyed === 'always') !== (key !== null))) throw new InvalidQueryError(`Unknown query parameter: ${name}.`);
    if (Array.isArray(value)) throw new InvalidQueryError(`The query parameter ${name} may appear only once.`);
    entries.set(parameter, [...(entries.get(parameter) ?? []), { raw: name, key, value }]);
  }
  for (const [parameter, own] of entries) bounded(`${parameter.name}[...]`, own);
  return entries;
}

/** The query string of an endpoint that takes none (the writes): any name is a 400, as `parseEndpointParameters` answers it. */
export function refuseQueryParameters(raw: RawQuery): void {
  entriesByParameter(raw, ENDPOINT_PARAMETERS.none);
}

/** Turns an endpoint's query string into a typed request, reading only the parameters that endpoint accepts. */
export function parseEndpointParameters(registry: ModelRegistry, model: ModelDefinition, raw: RawQuery, kind: EndpointKind = 'index'): ParsedQuery {
  const parameters: readonly QueryParameter[] = ENDPOINT_PARAMETERS[kind];
  const entries = entriesByParameter(raw, parameters);
  let request = defaultQuery(model);
  for (const parameter of parameters) {
    const own = entries.get(parameter);
    if (own) request = { ...request, ...parameter.read(own, { registry, model }, request) };
  }
  return request;
}
