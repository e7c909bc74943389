/**
 * Module hooks for an application's own TypeScript (its config and what the config imports):
 * always an ES module, as its `import` and `export` say, whatever the nearest package.json's
 * `type`. tsx follows that `type` and makes such a file CommonJS in a package without
 * `"type": "module"` (the one `npm init` writes, or none at all): its resolve names the format
 * and marks the URL with its `tsx-…` query parameters, its load then compiles the file to
 * CommonJS, which cannot import the CLI's own ES modules. This resolve hook, which wraps
 * tsx's, overrides that decision: it drops tsx's marks and names the format, which Node hands to
 * the load hooks, tsx's included. Files under node_modules, and `.cts` ones, keep the format
 * their packages give them.
 *
 * Node's loader thread imports hooks by URL: as a data: URL they need no file beside the build,
 * nor tsx to load them from the sources.
 */
const HOOKS = `const TSX_MARKS = /(?:\\?|%3F)tsx-.*$/;
const application = (url) => url.startsWith('file:') && url.endsWith('.ts') && !url.includes('/node_modules/');
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const url = resolved.url.replace(TSX_MARKS, '');
  return application(url) ? { ...resolved, url, format: 'module' } : resolved;
}`;

export const TYPESCRIPT_MODULES_HOOKS = `data:text/javascript,${encodeURIComponent(HOOKS)}`;
