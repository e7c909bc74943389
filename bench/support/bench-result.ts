import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS = fileURLToPath(new URL('../results', import.meta.url));

/**
 * Writes a benchmark's results to bench/results/<name>.json, prints `shown` (default: all of
 * them; null: nothing, for a benchmark that printed its own table) and where the file is.
 */
export async function writeBenchResult(name: string, result: object, shown: unknown = result): Promise<void> {
  const file = join(RESULTS, `${name}.json`);
  await mkdir(RESULTS, { recursive: true });
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  if (shown !== null) console.log(JSON.stringify(shown, null, 2));
  console.log(`Results: ${relative(process.cwd(), file)}`);
}
