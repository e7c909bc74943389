import { isAbsolute, relative } from 'node:path';
import { evaluatePolicyTests } from './evaluate-policy-tests.js';
import type { FixtureDatabaseSource } from './sql-checks.js';
import type { FixtureDatabase } from './fixture-database.js';
import type { CheckResult, PolicyTestApp } from './test-caller.js';
import { findPolicyTestFiles } from './find-policy-test-files.js';
import { PolicyTestFileError } from './policy-test-file-error.js';
import { readPolicyTestFile } from './read-policy-test-file.js';

export interface PolicyTestRun {
  /** Every expectation judged, file by file, in file order. */
  readonly results: readonly CheckResult[];
  /** Files that could not run, each failing the run. */
  readonly fileErrors: readonly PolicyTestFileError[];
  readonly passed: number;
  readonly failed: number;
}

/** A file inside `cwd` by its relative name, any other by its full one. */
function shortName(file: string, cwd: string): string {
  const inside = relative(cwd, file);
  return inside === '' || inside.startsWith('..') || isAbsolute(inside) ? file : inside;
}

/**
 * Runs every policy test file `paths` name; file names in the results are relative to `cwd`.
 * `openDatabase` is called at most once, by the first file with list tests, and closed at the end.
 */
export async function runPolicyTests(app: PolicyTestApp, paths: readonly string[], openDatabase: FixtureDatabaseSource, cwd = process.cwd()): Promise<PolicyTestRun> {
  const results: CheckResult[] = [];
  const fileErrors: PolicyTestFileError[] = [];
  let database: Promise<FixtureDatabase> | undefined;
  const once: FixtureDatabaseSource = () => (database ??= openDatabase());
  try {
    for (const file of await findPolicyTestFiles(paths)) {
      try {
        results.push(...(await evaluatePolicyTests(app, await readPolicyTestFile(shortName(file, cwd)), once)));
      } catch (error) {
        if (!(error instanceof PolicyTestFileError)) throw error;
        fileErrors.push(error);
      }
    }
  } finally {
    await database?.then((opened) => opened.close()).catch(() => {});
  }
  const passed = results.filter((result) => result.passed).length;
  return { results, fileErrors, passed, failed: results.length - passed + fileErrors.length };
}

/** The one line of a failed expectation: where, what, and why. */
export function failureLine(result: CheckResult): string {
  return `FAIL ${result.file}:${result.line} ${result.test}: ${result.check} expected ${result.expected}, got ${result.actual}: ${result.explanation}`;
}

export const summaryLine = (run: PolicyTestRun) => `${run.passed} passed, ${run.failed} failed`;
