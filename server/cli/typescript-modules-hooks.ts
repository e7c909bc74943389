/**
 * Module hooks for an application's own TypeScript (its config and what the config imports):
 * always an ES module, as its `import` and `export` say, whatever the nearest package.json's
 * `type`. tsx follows that `type` and makes such a file CommonJS in a package without
 * `"type": "module"` (the one `npm init` writes, or none at all); Node then fails to load it
 * beside the CLI's own ES modules ("Cannot require() ES Module … in a cycle"). Files under
 * node_modules, and `.cts` ones, keep the format their packages give them.
 *
 * Node's loader thread imports hooks by URL: as a data: URL they need no file beside the build,
 * nor tsx to load them from the sources.
 */
const HOOKS = `export function load(url, context, nextLoad) {
  const application = url.startsWith('file:') && url.endsWith('.ts') && !url.includes('/node_modules/');
  return nextLoad(url, application ? { ...context, format: 'module' } : context);
}`;

export const TYPESCRIPT_MODULES_HOOKS = `data:text/javascript,${encodeURIComponent(HOOKS)}`;
