// Module resolution for a benchmark server that runs Gatehouse as npm installs it: a source file
// of @gatehouse/engine or @gatehouse/server in the checkout named by `initialize` resolves to its
// build in the package's dist/ (tsc's output, what the packages ship). The demo application and
// the benchmark's own modules keep their TypeScript, run by tsx, as an installed `gatehouse`
// runs an application's gatehouse.config.ts.
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const PACKAGES = ['engine', 'server'];
let folders = [];

export function initialize({ root }) {
  folders = PACKAGES.map((name) => new URL(`${name}/`, root).href);
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const folder = folders.find((href) => resolved.url.startsWith(href));
  const inside = folder && resolved.url.slice(folder.length);
  if (!inside || !inside.endsWith('.ts') || inside.startsWith('dist/') || inside.startsWith('node_modules/')) return resolved;
  const built = new URL(`dist/${inside.slice(0, -'.ts'.length)}.js`, folder);
  // A source without its build would run the two mixed, and measure neither.
  if (!existsSync(built)) throw new Error(`${resolved.url} has no build at ${built.href}: run npm run build`);
  return { ...resolved, url: built.href, format: 'module' };
}
