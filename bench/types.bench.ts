// How long TypeScript (skipLibCheck false, its default) takes to check a consumer of each package
// (install sizes are measured by tests/packages/install-sizes.test.ts). Targets from issue 11: the
// engine consumer under 10 s, the server consumer under 20 s.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { writeEngineConsumer, writeServerConsumer } from '../harness/package-consumers.js';
import { installConsumer, packPackages, repositoryVersion, scratchFolder, strictTsconfig, typeCheck } from '../harness/packed-packages.js';
import { writeBenchResult } from './support/bench-result.js';

async function writeBaseline(folder: string, source: string): Promise<void> {
  await mkdir(join(folder, 'src'), { recursive: true });
  await writeFile(join(folder, 'tsconfig.json'), strictTsconfig());
  await writeFile(join(folder, 'src', 'baseline.ts'), source);
}

const ROUNDS = 3;
const TARGET_SECONDS = { engine: 10, server: 20 };

const scratch = await scratchFolder('bench-types');
try {
  const tarballs = await packPackages(scratch);
  const folder = (name: string) => join(scratch, name);
  await installConsumer(folder('engine'), [tarballs.engine]);
  // zod is the application's own too (its schemas); gatehouse depends on the same version.
  await installConsumer(folder('server'), [tarballs.engine, tarballs.server], { zod: await repositoryVersion('zod') });

  await writeEngineConsumer(folder('engine'));
  await writeServerConsumer(folder('server'));
  // Baselines: TypeScript's own libraries (a consumer importing nothing), and those plus
  // @types/node, which every Node service checks anyway (a consumer of node:http, resolving from
  // the server install so it sees the same @types/node).
  const baselines = { 'empty baseline': folder('baseline'), 'node:http baseline': join(folder('server'), 'node-baseline') };
  await writeBaseline(baselines['empty baseline'], 'export const nothing: null = null;\n');
  await writeBaseline(baselines['node:http baseline'], "import { createServer } from 'node:http';\nexport const server = createServer();\n");

  const consumers: Record<string, string> = { ...baselines, engine: folder('engine'), server: folder('server') };
  const seconds: Record<string, number[]> = Object.fromEntries(Object.keys(consumers).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, consumer] of Object.entries(consumers)) {
      const started = performance.now();
      await typeCheck(consumer);
      seconds[name]!.push((performance.now() - started) / 1000);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const medians = Object.fromEntries(Object.entries(seconds).map(([name, rounds]) => [name, median(rounds)]));
  const checks = Object.fromEntries(Object.entries(seconds).map(([name, rounds]) => [name, { medianSeconds: medians[name], rounds }]));
  const targets = {
    engineSecondsBelow: TARGET_SECONDS.engine,
    serverSecondsBelow: TARGET_SECONDS.server,
    engineMet: medians.engine! < TARGET_SECONDS.engine,
    serverMet: medians.server! < TARGET_SECONDS.server,
  };

  // The machine's load is part of the result: timings on a busy machine only compare within a run.
  const load = loadavg()[0]!;
  console.log(`| tsc --noEmit, skipLibCheck false (load average ${load.toFixed(1)} on ${availableParallelism()} cores) | median s (of ${ROUNDS}) | / node:http baseline |`);
  console.log('|---|---:|---:|');
  for (const [name, value] of Object.entries(medians)) console.log(`| ${name} | ${value!.toFixed(2)} | ${(value! / medians['node:http baseline']!).toFixed(2)}x |`);
  console.log(
    `\nTargets: engine consumer < ${TARGET_SECONDS.engine} s: ${targets.engineMet ? 'met' : 'MISSED'}; server consumer < ${TARGET_SECONDS.server} s: ${targets.serverMet ? 'met' : 'MISSED'}`,
  );
  if (!targets.engineMet || !targets.serverMet) process.exitCode = 1;

  await writeBenchResult('types', { node: process.version, date: new Date().toISOString(), loadAverage: load, targets, checks }, null);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
