import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * `npm run test:standalone [-- --base <rev>] [--seed <n>]`: every test file changed since the
 * base (default: where HEAD left main) runs with its tests in a random order, then one test of
 * each file runs alone. A test that leans on another's leftovers fails one of the two. The seed
 * is printed, so a failing order runs again with `--seed`.
 */
const { values } = parseArgs({ options: { base: { type: 'string' }, seed: { type: 'string' } } });

const TEST_FILE = /^tests\/.+\.test\.tsx?$/;
const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const lines = (text: string) => text.split('\n').filter((line) => line !== '');

function defaultBase(): string {
  for (const branch of ['main', 'origin/main']) {
    try {
      return git('merge-base', 'HEAD', branch);
    } catch {
      // No such branch here: try the next.
    }
  }
  throw new Error('No main or origin/main to compare with: pass --base <revision>.');
}

/** Test files added or changed since `base`, committed or not, that still exist. */
function changedTestFiles(base: string): string[] {
  const changed = [...lines(git('diff', '--name-only', '--diff-filter=d', base)), ...lines(git('ls-files', '--others', '--exclude-standard', 'tests'))];
  return [...new Set(changed)].filter((file) => TEST_FILE.test(file)).sort();
}

function vitest(args: string[]): boolean {
  console.log(`\n$ vitest run ${args.join(' ')}`);
  return spawnSync('npx', ['vitest', 'run', ...args], { stdio: 'inherit' }).status === 0;
}

interface Report {
  testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const base = values.base ?? defaultBase();
const files = changedTestFiles(base);
if (files.length === 0) {
  console.log(`No test file changed since ${base}.`);
  process.exit(0);
}
const seed = Number(values.seed ?? Math.floor(Math.random() * 2 ** 31));
console.log(`${files.length} test files changed since ${base}; shuffle seed ${seed}.`);

const reportDir = mkdtempSync(join(tmpdir(), 'gatehouse-standalone-'));
const reportFile = join(reportDir, 'report.json');
const shuffled = vitest([...files, '--sequence.shuffle', `--sequence.seed=${seed}`, '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`]);
const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
rmSync(reportDir, { recursive: true, force: true });

// One passing test per file, chosen by the seed; -t matches the full name (describe and test).
const alone = report.testResults.flatMap(({ name, assertionResults }, index) => {
  const passed = assertionResults.filter((test) => test.status === 'passed');
  const chosen = passed[(seed + index) % Math.max(passed.length, 1)];
  if (chosen) console.log(`alone: ${relative(process.cwd(), name)} › ${chosen.fullName}`);
  return chosen ? [chosen.fullName] : [];
});
const single = alone.length === 0 || vitest([...files, '-t', `^(?:${alone.map(escapeRegExp).join('|')})$`]);

if (!shuffled || !single) {
  console.error(`\nNot standalone: ${!shuffled ? `the shuffled run (seed ${seed}) failed` : 'a test run alone failed'}.`);
  process.exit(1);
}
console.log(`\nEvery changed file passed shuffled (seed ${seed}), and one test of each alone.`);
