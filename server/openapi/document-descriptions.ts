import type { RouteDescription } from '../routes/route-definition.js';

// The document describes itself too; its routes' handlers are attached in document-routes.ts,
// which builds on the document, so the builder reads these descriptions alone.

export const OPENAPI_DOCUMENT: RouteDescription = {
  operationId: 'openApiDocument',
  method: 'get',
  path: '/openapi.json',
  summary: 'This document',
  tag: 'service',
  access: 'none',
  responses: { 200: { description: 'OpenAPI 3.1', schema: { type: 'object' } } },
  errors: [],
};

export const API_REFERENCE: RouteDescription = {
  operationId: 'apiReference',
  method: 'get',
  path: '/docs',
  summary: 'The API reference page (Swagger UI) for this document',
  tag: 'service',
  access: 'none',
  responses: { 200: { description: 'HTML', contentType: 'text/html' } },
  errors: [],
};

/** The routes outside every route group, in the document's order. */
export const DOCUMENT_DESCRIPTIONS: readonly RouteDescription[] = [OPENAPI_DOCUMENT, API_REFERENCE];
