import type { PolicyTestRun } from './run-policy-tests.js';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[character]!);

const attributes = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${escape(String(value))}"`)
    .join('');

/**
 * The run as JUnit XML, the format CI systems read: one testsuite per file, one testcase per
 * expectation (`{test}: {check}`), a failure carrying the explanation; a file that could not run
 * is a suite with one failed case.
 */
export function junitReport(run: PolicyTestRun): string {
  const files = [...new Set([...run.results.map((result) => result.file), ...run.fileErrors.map((error) => error.file)])];
  const suites = files.map((file) => {
    const results = run.results.filter((result) => result.file === file);
    const errors = run.fileErrors.filter((error) => error.file === file);
    const cases = [
      ...results.map((result) => {
        const name = attributes({ name: `${result.test}: ${result.check}`, classname: file });
        if (result.passed) return `    <testcase${name}/>`;
        const message = `expected ${result.expected}, got ${result.actual}`;
        return `    <testcase${name}>\n      <failure${attributes({ message, type: 'policy' })}>${escape(`${file}:${result.line} ${message}: ${result.explanation}`)}</failure>\n    </testcase>`;
      }),
      ...errors.map(
        (error) =>
          `    <testcase${attributes({ name: 'schema', classname: file })}>\n      <failure${attributes({ message: error.message, type: 'schema' })}>${escape(error.message)}</failure>\n    </testcase>`,
      ),
    ];
    const failures = results.filter((result) => !result.passed).length + errors.length;
    return `  <testsuite${attributes({ name: file, tests: cases.length, failures, errors: 0 })}>\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attributes({ name: 'gatehouse policy test', tests: run.passed + run.failed, failures: run.failed })}>\n${suites.join('\n')}\n</testsuites>\n`;
}
