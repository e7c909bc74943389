import { dirname, resolve } from 'node:path';

/** A file that does not parse, and where: line and column counted from 1. */
export interface SyntaxErrorLocation {
  file: string;
  line: number;
  column: number;
  text: string;
}

/**
 * The first file, of a config and the application files it imports, that fails to parse, or
 * null when they all parse (or only an import does not resolve). Node's own SyntaxError of an ES module carries no position, nor the
 * file when an imported one fails, and tsx's names them only inside a multi-line message;
 * esbuild (which tsx runs), following the imports as a bundle would, reports them as data.
 * Packages are not followed: they are not the application's to fix. esbuild is loaded only
 * here, once a config has failed to load: every start would pay for it otherwise.
 */
export async function syntaxErrorLocation(path: string): Promise<SyntaxErrorLocation | null> {
  const { build } = await import('esbuild');
  // esbuild names files relative to this folder.
  const folder = dirname(path);
  try {
    await build({ entryPoints: [path], absWorkingDir: folder, bundle: true, write: false, packages: 'external', platform: 'node', format: 'esm', logLevel: 'silent' });
    return null;
  } catch (error) {
    const errors = (error as { errors?: { text: string; location: { file: string; line: number; column: number } | null }[] }).errors ?? [];
    // An import that does not resolve is no syntax error: Node's own message says which.
    const first = errors.find((candidate) => !candidate.text.startsWith('Could not resolve'));
    if (!first?.location) return null;
    return { file: resolve(folder, first.location.file), line: first.location.line, column: first.location.column + 1, text: first.text };
  }
}
