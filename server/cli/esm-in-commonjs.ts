/**
 * The file that holds import or export where its package makes it CommonJS (a `.js` or `.cjs`
 * file in a package without `"type": "module"`), or null for another failure. Node names it
 * in the message of a require() of an ES module, and on the first line of a CommonJS file's
 * SyntaxError.
 */
export function esmInCommonJsFile(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const required = /^Cannot require\(\) ES Module (.+) in a cycle\./.exec(error.message);
  if (required) return required[1] ?? null;
  if (error.name !== 'SyntaxError' || !/^(Unexpected token 'export'|Cannot use import statement outside a module)/.test(error.message)) return null;
  return /^(.+):\d+$/m.exec(error.stack ?? '')?.[1] ?? null;
}
