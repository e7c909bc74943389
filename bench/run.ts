// `npm run bench -- <name>...` runs bench/<name>.bench.ts; with no name, every benchmark.
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchSettingError } from './support/bench-setting.js';

const here = dirname(fileURLToPath(import.meta.url));
const available = (await readdir(here))
  .filter((file) => file.endsWith('.bench.ts'))
  .map((file) => file.slice(0, -'.bench.ts'.length))
  .sort();
const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${available.join(', ')}`);
  process.exit(2);
}
for (const name of requested.length > 0 ? requested : available) {
  console.log(`\n## ${name}`);
  try {
    await import(join(here, `${name}.bench.ts`));
  } catch (error) {
    if (!(error instanceof BenchSettingError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
}
