import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import Router from '@koa/router';
import { send } from '@koa/send';
import type { GatehouseMiddleware, GatehouseState } from '../http/state.js';

// Swagger UI's prebuilt bundle from npm, served by Gatehouse itself: the reference works offline.
const assetRoot = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js'] as const;

function page(basePath: string, specUrl: string): string {
  const asset = (file: string) => `${basePath}/docs/${file}`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Gatehouse API reference</title>
  <link rel="stylesheet" href="${asset('swagger-ui.css')}">
  <style>body { margin: 0; } .swagger-ui .topbar { display: none; }</style>
</head>
<body>
  <div id="reference"></div>
  <script src="${asset('swagger-ui-bundle.js')}"></script>
  <script>
    SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: '#reference', deepLinking: true, persistAuthorization: true, docExpansion: 'none', filter: true });
  </script>
</body>
</html>
`;
}

/**
 * The API reference page, rendering `{basePath}/openapi.json`. Tags start folded and a filter box
 * narrows them: the document has a few hundred operations.
 */
export function apiReferencePage(basePath: string): GatehouseMiddleware {
  const html = page(basePath, `${basePath}/openapi.json`);
  return (ctx) => {
    ctx.type = 'html';
    ctx.body = html;
  };
}

/**
 * The page's two assets, from the installed `swagger-ui-dist`. Every request passes here on its
 * way to the routes: only one whose path can be an asset's (paths match in any case) reaches the
 * router.
 */
export function apiReferenceAssets(basePath: string): GatehouseMiddleware {
  const prefix = `${basePath}/docs`;
  const router = new Router<GatehouseState>({ prefix });
  for (const file of ASSETS) {
    router.get(`/${file}`, async (ctx) => {
      await send(ctx, file, { root: assetRoot, maxage: 24 * 60 * 60 * 1000 });
    });
  }
  const assets = router.routes() as GatehouseMiddleware;
  const under = prefix.toLowerCase();
  return (ctx, next) => (ctx.path.toLowerCase().startsWith(under) ? assets(ctx, next) : next());
}
