import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseBlocks } from '../support/readme-tutorial.js';

// A page that tells the reader what to install must install every @gatehouse package its code
// imports. A package that another one brings along (the engine under the server) is importable
// under npm's hoisting only: pnpm and npm's `--install-strategy=linked` give a project's code
// just the packages its package.json names. A page without an install command continues from
// one that has it, so there is nothing of its own to check.

const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), '../..');
const documents = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: REPOSITORY, encoding: 'utf8' })
  .split('\n')
  .filter((path) => path !== '' && path !== 'CHANGELOG.md');

const CODE = new Set(['ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs']);
const INSTALL = /\b(?:npm (?:install|i|add)|pnpm add|yarn add)((?: +[^\s&|;]+)*)/g;
const IMPORTED = /\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]/g;

/** The package of an install argument or an import (`@gatehouse/client/native`, `@gatehouse/server@0.1.0`). */
const packageOf = (specifier: string) => /^(@[^/@]+\/[^/@]+|[^/@]+)/.exec(specifier)?.[1] ?? specifier;

/** The @gatehouse packages a page's code imports that none of its install commands installs. */
function notInstalled(markdown: string): string[] {
  const blocks = parseBlocks(markdown);
  const installed = new Set(
    blocks
      .filter((block) => block.language === 'sh')
      .flatMap((block) => block.text.replace(/\\\n\s*/g, '').split('\n'))
      .flatMap((line) => [...line.replace(/(^|\s)#.*$/, '').matchAll(INSTALL)])
      .flatMap(([, args]) => args!.trim().split(/ +/).filter((arg) => arg !== '' && !arg.startsWith('-')).map(packageOf)),
  );
  if (installed.size === 0) return [];
  const imported = blocks.filter((block) => CODE.has(block.language)).flatMap((block) => [...block.text.matchAll(IMPORTED)].map((match) => packageOf(match[1] ?? match[2] ?? match[3]!)));
  return [...new Set(imported)].filter((name) => name.startsWith('@gatehouse/') && !installed.has(name));
}

describe('the packages a page installs', () => {
  it('recognizes an imported @gatehouse package that the install command leaves out', () => {
    const page = (install: string) =>
      [
        '```sh',
        `${install}  # the server`,
        '```',
        '```ts',
        "import { ResourcePolicy } from '@gatehouse/engine';",
        "import type { GatehouseConfig } from '@gatehouse/server';",
        "const { login } = await import('@gatehouse/client/native');",
        "import { z } from 'zod';",
        '```',
      ].join('\n');
    expect(notInstalled(page('npm install @gatehouse/server zod'))).toEqual(['@gatehouse/engine', '@gatehouse/client']);
    expect(notInstalled(page('pnpm add @gatehouse/server@0.1.0 @gatehouse/engine @gatehouse/client'))).toEqual([]);
    expect(notInstalled(page('npm install && npm start'))).toEqual([]);
  });

  it.each(documents.map((path) => [path]))('%s installs every @gatehouse package its code imports', (path) => {
    expect(notInstalled(readFileSync(join(REPOSITORY, path), 'utf8'))).toEqual([]);
  });
});
