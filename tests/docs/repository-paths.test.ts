import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every repository path the documentation names in backticks must exist, so a reader who looks
// for `server/cli/program.ts` finds it. A path counts as the repository's when its first segment
// is, or once was, one of the repository's own top-level entries (a folder that moved away still
// counts, so its old paths are caught); build outputs git ignores (`web/dist`) count as named,
// not as missing.

const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), '../..');
const git = (...args: string[]) => execFileSync('git', args, { cwd: REPOSITORY, encoding: 'utf8' });

const EVER_TRACKED = [...git('ls-files').split('\n'), ...git('log', '--format=', '--name-only').split('\n')].filter(Boolean);
const TOP_LEVEL = new Set(EVER_TRACKED.map((path) => path.split('/')[0]!));
const PROJECT_FILES = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'CHANGELOG.md', 'engine/README.md', 'server/README.md', 'client/README.md'];

function markdownFiles(folder: string): string[] {
  return readdirSync(join(REPOSITORY, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('.') || entry.name === 'node_modules' ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** Inline code spans outside fenced blocks that read as a repository path. */
function namedPaths(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1\s*$/gm, '');
  return [...prose.matchAll(/`([^`\s]+)`/g)]
    .map(([, code]) => code!.replace(/[.,:;]$/, ''))
    .filter((code) => /^[\w.-]+(\/[\w.*-]*)*$/.test(code) && (code.includes('/') || /\.\w+$/.test(code)))
    .filter((code) => TOP_LEVEL.has(code.split('/')[0]!) && (code.includes('/') || TOP_LEVEL.has(code)));
}

/** Whether the path, a folder or a `*` pattern in its last segment, names something on disk. */
function exists(path: string): boolean {
  if (!path.includes('*')) return existsSync(join(REPOSITORY, path));
  const folder = dirname(path);
  const pattern = new RegExp(`^${path.slice(folder.length + 1).replace(/[.]/g, '\\.').replaceAll('*', '.*')}$`);
  return existsSync(join(REPOSITORY, folder)) && readdirSync(join(REPOSITORY, folder)).some((name) => pattern.test(name));
}

/** The paths git ignores, as a file or as a folder (`web/dist/`), built or not. */
function ignored(paths: string[]): Set<string> {
  if (paths.length === 0) return new Set();
  const input = paths.flatMap((path) => [path, `${path.replace(/\/$/, '')}/`]).join('\n');
  try {
    return new Set(execFileSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: REPOSITORY, input, encoding: 'utf8' }).split('\n').map((path) => path.replace(/\/$/, '')));
  } catch {
    return new Set(); // exit 1: none of them is ignored
  }
}

const documents = [...markdownFiles('docs'), ...PROJECT_FILES.filter((path) => existsSync(join(REPOSITORY, path)))];

describe('repository paths named in the documentation', () => {
  it('reads the docs site and the project files', () => {
    expect(documents).toContain(join('docs', 'index.md'));
    expect(documents).toContain('README.md');
  });

  it.each(documents.map((path) => [relative('.', path)]))('%s names only paths that exist', (path) => {
    const named = [...new Set(namedPaths(readFileSync(join(REPOSITORY, path), 'utf8')))];
    const missing = named.filter((candidate) => !exists(candidate));
    const outputs = ignored(missing);
    expect(missing.filter((candidate) => !outputs.has(candidate.replace(/\/$/, '')))).toEqual([]);
  });
});
