import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** The workspace folders of the root package.json: each is a published package with its own page. */
const workspaces = (): string[] => (JSON.parse(readFileSync(join(REPOSITORY, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;

/** A markdown file without its fenced blocks, whose paths are a reader's own project's. */
const prose = (markdown: string) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1\s*$/gm, '');

/** Inline code spans outside fenced blocks that read as a repository path. */
function namedPaths(markdown: string): string[] {
  return [...prose(markdown).matchAll(/`([^`\s]+)`/g)]
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

// Every markdown file of the repository, committed or new: the docs site, the README, the project
// files and each package's README (its page on the registry).
const documents = git('ls-files', '--cached', '--others', '--exclude-standard', '*.md').split('\n').filter(Boolean).sort();
// The docs site's own links are checked by its build (`npm run docs:build` fails on a dead one);
// the other files' relative links are checked here, as a reader on GitHub follows them.
const outsideSite = documents.filter((path) => !path.startsWith('docs/'));

/** The targets of a markdown file's relative links, outside fenced blocks, without their anchors. */
function linkedFiles(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)].map(([, target]) => target!).filter((target) => !/^[a-z]+:/i.test(target));
}

describe('repository paths named in the documentation', () => {
  it('reads the docs site, the project files and every package README', () => {
    expect(documents).toEqual(expect.arrayContaining(['docs/index.md', 'README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'CHANGELOG.md']));
    for (const folder of workspaces()) expect(documents).toContain(`${folder}/README.md`);
  });

  it.each(documents.map((path) => [path]))('%s names only paths that exist', (path) => {
    const named = [...new Set(namedPaths(readFileSync(join(REPOSITORY, path), 'utf8')))];
    const missing = named.filter((candidate) => !exists(candidate));
    const outputs = ignored(missing);
    expect(missing.filter((candidate) => !outputs.has(candidate.replace(/\/$/, '')))).toEqual([]);
  });

  it.each(outsideSite.map((path) => [path]))('%s links only to files that exist', (path) => {
    const broken = linkedFiles(readFileSync(join(REPOSITORY, path), 'utf8')).filter((target) => !existsSync(join(REPOSITORY, dirname(path), target)));
    expect(broken).toEqual([]);
  });
});
