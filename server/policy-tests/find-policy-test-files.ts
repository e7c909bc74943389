import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const POLICY_TEST_FILE = /\.policy\.ya?ml$/;

/** A path to look in that holds no policy test file. */
export class NoPolicyTestsError extends Error {
  constructor(where: string) {
    super(`No *.policy.yaml files in ${where}.`);
    this.name = 'NoPolicyTestsError';
  }
}

/** The `*.policy.yaml` files a path names: the file itself, or those anywhere under a folder, sorted. */
async function filesAt(path: string): Promise<string[]> {
  const found = await stat(path).catch(() => null);
  if (found === null) throw new NoPolicyTestsError(`${path} (it does not exist)`);
  if (!found.isDirectory()) return [path];
  const names = (await readdir(path, { recursive: true })).filter((name) => POLICY_TEST_FILE.test(name)).sort();
  if (names.length === 0) throw new NoPolicyTestsError(path);
  return names.map((name) => join(path, name));
}

export async function findPolicyTestFiles(paths: readonly string[]): Promise<string[]> {
  return [...new Set((await Promise.all(paths.map(filesAt))).flat())];
}
