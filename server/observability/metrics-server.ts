import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { GatehouseMetrics } from './metrics.js';

export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics` on a port of its own, apart from the public API: operators expose it to their
 * scraper only. Everything else is a 404. Resolves once listening.
 */
export async function serveMetrics(metrics: GatehouseMetrics, port: number, host?: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = request.url?.split('?')[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n');
      return;
    }
    metrics.render().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(request.method === 'HEAD' ? undefined : text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be collected\n'),
    );
  }).listen(port, host);
  await once(server, 'listening');
  return server;
}

/** Stops serving metrics, cutting a scrape in progress. */
export async function closeMetrics(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
