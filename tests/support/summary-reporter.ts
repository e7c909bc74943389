import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain `tests: N passed, N failed, N skipped` line, the summary format
 * CI tooling reads regardless of the test runner.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = (state: 'passed' | 'failed' | 'skipped') =>
      testModules.reduce((total, module) => total + [...module.children.allTests(state)].length, 0);
    // A file that fails to load or whose hooks throw has no failed test of its own.
    const brokenModules = testModules.filter(
      (module) => module.state() === 'failed' && [...module.children.allTests('failed')].length === 0,
    ).length;
    console.log(`tests: ${count('passed')} passed, ${count('failed') + brokenModules} failed, ${count('skipped')} skipped`);
  }
}
