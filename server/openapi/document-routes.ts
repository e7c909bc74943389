import { apiReferencePage } from '../pages/api-reference.js';
import type { RequestState } from '../http/state.js';
import type { RouteDefinition } from '../routes/route-definition.js';
import { SERVICE_ROUTES } from '../routes/service-routes.js';
import { API_REFERENCE, OPENAPI_DOCUMENT } from './document-descriptions.js';
import { openApi } from './openapi-route.js';

/** `{basePath}/openapi.json` and its reference page `{basePath}/docs`. */
export const DOCUMENT_ROUTES: readonly RouteDefinition<RequestState>[] = [
  { ...OPENAPI_DOCUMENT, handle: (services) => [openApi(services)] },
  { ...API_REFERENCE, handle: (services) => [apiReferencePage(services.config.basePath)] },
];

/** Every route outside the route groups: the service's own, then the document's. */
export const UNGROUPED_ROUTES: readonly RouteDefinition<RequestState>[] = [...SERVICE_ROUTES, ...DOCUMENT_ROUTES];
