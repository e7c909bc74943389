import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The documentation cites only what its reader can open: no private design notes, no tracker
// numbers, no clients of another project. The changelog is left out: it records history.

const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), '../..');
const UNREACHABLE = [/\bDESIGN\.md\b/, /\bCONTRACT\.md\b/, /\bthe contract\b/i, /\bissues? \d+/i, /\bfindings? \d+/i, /\bRhino\b/];

const documents = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: REPOSITORY, encoding: 'utf8' })
  .split('\n')
  .filter((path) => path !== '' && path !== 'CHANGELOG.md');

describe('references a reader cannot follow', () => {
  it.each(documents.map((path) => [path]))('%s has none', (path) => {
    const lines = readFileSync(join(REPOSITORY, path), 'utf8').split('\n');
    const found = lines.flatMap((line, index) => (UNREACHABLE.some((pattern) => pattern.test(line)) ? [`${index + 1}: ${line.trim()}`] : []));
    expect(found).toEqual([]);
  });
});
