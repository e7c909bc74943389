import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The exit status of a Node process that loads the embedded cluster module, then runs `body`. */
function exitStatusOf(body: string): Promise<number> {
  const script = `await import(${JSON.stringify(join(ROOT, 'server', 'db', 'cluster', 'embedded-cluster.ts'))}); ${body}`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT }, (error) => {
      resolve(error ? Number(error.code ?? -1) : 0);
    });
  });
}

// The test runner itself reports failures through process.exitCode, with the embedded cluster
// loaded by its global setup: if the cluster's exit hook cleared the code, CI would pass any run.
describe('a process that loads the embedded cluster', () => {
  it('ends with the exit code it set', async () => {
    expect(await exitStatusOf('process.exitCode = 3;')).toBe(3);
  });

  it('ends with 0 when it set none, and with the code it passes to process.exit', async () => {
    expect(await exitStatusOf('')).toBe(0);
    expect(await exitStatusOf('process.exit(4);')).toBe(4);
  });
});
