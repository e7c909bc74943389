import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../server/cli/program.js';

// Every command the documentation tells a reader to run must exist, as every path it names must
// (repository-paths.test.ts): a `gatehouse` command with its flags, an `npm run` script, a
// benchmark, and the GATEHOUSE_* and BENCH_* variables. The changelog is left out: it records history.

const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), '../..');
const git = (...args: string[]) => execFileSync('git', args, { cwd: REPOSITORY, encoding: 'utf8' }).split('\n').filter(Boolean);
const read = (path: string) => readFileSync(join(REPOSITORY, path), 'utf8');

const documents = git('ls-files', '--cached', '--others', '--exclude-standard', '*.md').filter((path) => path !== 'CHANGELOG.md');
const FENCED = /^```(\w*)\n([\s\S]*?)^```\s*$/gm;

/** What a page gives to run: its inline code outside fenced blocks, and each line of its shell blocks, comments cut. */
function runnable(markdown: string): string[] {
  const inline = [...markdown.replace(FENCED, '').matchAll(/`([^`]+)`/g)].map(([, code]) => code!.replace(/\s+/g, ' '));
  const shell = [...markdown.matchAll(FENCED)].filter(([, language]) => language === 'sh').flatMap(([, , body]) => body!.replace(/\\\n\s*/g, '').split('\n'));
  return [...inline, ...shell].map((line) => line.replace(/(^|\s)#.*$/, ''));
}

const program = createProgram();
const subcommand = (parent: Command, name: string) => parent.commands.find((command) => command.name() === name);
const flagsOf = (command: Command): string[] =>
  [command, ...(command.parent ? [command.parent] : [])].flatMap((owner) => owner.options.flatMap((option) => [option.long, option.short].filter((flag) => flag !== undefined)));
// Commander's own: every command answers --help, the program --version, and `help <command>` explains one.
const BUILT_IN = ['--help', '-h', '--version', '-V'];

/** A table cell's `analyst grant\|revoke` as each command it names. */
function variants(words: string[]): string[][] {
  const index = words.findIndex((word) => word.includes('\\|'));
  if (index < 0) return [words];
  return words[index]!.split('\\|').flatMap((word) => variants([...words.slice(0, index), word, ...words.slice(index + 1)]));
}

/** What is wrong with one `gatehouse …` command line (the words after `gatehouse`), if anything. */
function commandProblems([name = '', next, ...options]: string[]): string[] {
  if (name.startsWith('<') || name.startsWith('-') || name === 'help') return [];
  let command = subcommand(program, name);
  if (command === undefined) return [`no command \`${name}\``];
  const chosen = next === undefined ? undefined : subcommand(command, next);
  if (chosen !== undefined) command = chosen;
  else if (command.commands.length > 0 && next !== undefined && /^[a-z]/.test(next)) return [`no command \`${name} ${next}\``];
  const flags = [...flagsOf(command), ...BUILT_IN];
  const named = (chosen === undefined ? [next ?? '', ...options] : options).flatMap((word) => /^--?[a-zA-Z][\w-]*/.exec(word) ?? []);
  return named.filter((flag) => !flags.includes(flag)).map((flag) => `\`${command.name()}\` has no ${flag}`);
}

/** Scripts of the root and of each workspace, by name. */
const scripts = new Set(
  ['.', ...(JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces].flatMap((folder) => Object.keys((JSON.parse(read(join(folder, 'package.json'))) as { scripts?: object }).scripts ?? {})),
);
const benchmarks = readdirSync(join(REPOSITORY, 'bench')).flatMap((file) => /^(.+)\.bench\.ts$/.exec(file)?.[1] ?? []);
// Every file but the documentation and its tests: the code that reads a variable, or the test harness that sets it.
const code = git('ls-files', '--cached', '--others', '--exclude-standard')
  .filter((path) => !/^(docs|tests\/docs)\//.test(path) && !path.endsWith('.md') && !/\.(png|jpe?g|ico|woff2?)$/.test(path))
  .map(read)
  .join('\n');
const known = new Map<string, boolean>();
const readSomewhere = (variable: string) => known.get(variable) ?? known.set(variable, new RegExp(`\\b${variable}\\b`).test(code)).get(variable)!;

function problems(markdown: string): string[] {
  const found: string[] = [];
  for (const line of runnable(markdown)) {
    for (const [, rest] of line.matchAll(/(?:^|[\s(])(?:npx )?gatehouse ((?:\\\||[^|;&)`])*)/g)) found.push(...variants(rest!.trim().split(/\s+/)).flatMap(commandProblems));
    for (const [, script] of line.matchAll(/\bnpm run ([\w:.-]+)/g)) if (!scripts.has(script!)) found.push(`no script \`${script}\``);
    const [, names = ''] = /\bnpm run bench -- ((?:[a-z][\w-]* ?)+)/.exec(line) ?? [];
    for (const name of names.split(' ').filter(Boolean)) if (!benchmarks.includes(name)) found.push(`no benchmark \`${name}\``);
  }
  for (const [variable] of markdown.matchAll(/\b(?:GATEHOUSE|BENCH)_[A-Z0-9_]*[A-Z0-9]\b/g)) if (!readSomewhere(variable)) found.push(`nothing reads ${variable}`);
  return [...new Set(found)];
}

describe('commands named in the documentation', () => {
  it('recognizes a command, a flag, a script, a benchmark or a variable that does not exist', () => {
    const page = ['`npx gatehouse orgs list`', '`gatehouse member add --organization acme`', '```sh\nnpm run bench -- rls nothing\nnpm run docs:serve\n```', '`GATEHOUSE_NOTHING`'].join('\n');
    expect(problems(page)).toEqual(['no command `orgs`', '`add` has no --organization', 'no benchmark `nothing`', 'no script `docs:serve`', 'nothing reads GATEHOUSE_NOTHING']);
  });

  it.each(documents.map((path) => [path]))('%s names only commands that exist', (path) => {
    expect(problems(read(path))).toEqual([]);
  });
});
