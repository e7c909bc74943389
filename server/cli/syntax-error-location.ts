import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Loader } from 'esbuild';

const LOADERS: Record<string, Loader> = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js' };

/**
 * Where a source file fails to parse, as "line L, column C: what" (both counted from 1), or null
 * when it parses. Node's own SyntaxError of an ES module carries no position, and tsx's names it
 * only inside a multi-line message; esbuild (which tsx runs) reports it as data. It is loaded
 * only here, once a config has failed to load: every start would pay for it otherwise.
 */
export async function syntaxErrorLocation(path: string): Promise<string | null> {
  const { transform } = await import('esbuild');
  try {
    await transform(await readFile(path, 'utf8'), { loader: LOADERS[extname(path)] ?? 'ts', format: 'esm', sourcefile: path });
    return null;
  } catch (error) {
    const [first] = (error as { errors?: { text: string; location: { line: number; column: number } | null }[] }).errors ?? [];
    if (!first?.location) return null;
    return `line ${first.location.line}, column ${first.location.column + 1}: ${first.text}`;
  }
}
