// The ability engine against raw CASL: checks per second of a compiled ability vs hand-written
// CASL rules granting the same, and the time to build an ability. Results: bench/results/engine.json.
import { createMongoAbility, type MongoAbility, type RawRuleOf } from '@casl/ability';
import { compileAbility, effectivePermissions, type GatehouseAbility } from '@gatehouse/engine';
import { writeBenchResult } from './support/bench-result.js';

const SIZES = [10, 100, 1000];
const ACTIONS = ['index', 'show', 'store', 'update', 'destroy', 'trashed', 'restore', 'forceDelete', 'publish', 'archive'];
const CHECKS = 4096;
const ROUNDS = 15;
const ROUND_MS = 100;
const BUILDS = 300;
const TARGET_RATIO = 0.8;
const TARGET_BUILD_MS = 1;

type RawRule = RawRuleOf<MongoAbility>;

interface Scenario {
  role: string[];
  denied: string[];
  rawRules: RawRule[];
  checks: [string, string][];
}

// Seeded, so every run measures the same sets and checks.
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Every tenth resource is granted as `{slug}.*` minus forceDelete (a wildcard with an
// exclusion), the others action by action, until the role holds `size` permissions.
function scenario(size: number): Scenario {
  const role: string[] = [];
  const denied: string[] = [];
  const grants: RawRule[] = [];
  const denies: RawRule[] = [];
  const slugs: string[] = [];
  for (let index = 0; role.length < size; index++) {
    const slug = `resource${index}`;
    slugs.push(slug);
    if (index % 10 === 0) {
      role.push(`${slug}.*`);
      denied.push(`${slug}.forceDelete`);
      grants.push({ action: 'manage', subject: slug });
      denies.push({ action: 'forceDelete', subject: slug, inverted: true });
      continue;
    }
    for (const action of ACTIONS.slice(0, size - role.length)) {
      role.push(`${slug}.${action}`);
      grants.push({ action, subject: slug });
    }
  }
  const next = random(size);
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)] as T;
  const checkSlugs = [...slugs, 'unknown_a', 'unknown_b'];
  const checkActions = [...ACTIONS, 'unknownAction'];
  const checks = Array.from({ length: CHECKS }, (): [string, string] => [copy(pick(checkActions)), copy(pick(checkSlugs))]);
  return { role, denied, rawRules: [...grants, ...denies], checks };
}

// A request's action and slug are never the very string objects the rules were built from. The
// hand-written rules share them with the checks, which would let CASL's map lookups match by
// identity on one side only.
function copy(text: string): string {
  return text.split('').join('');
}

type Checker = Pick<GatehouseAbility, 'can'>;

let sink = 0;

function checksPerSecond(ability: Checker, checks: [string, string][]): number {
  let passes = 0;
  let allowed = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (const [action, slug] of checks) if (ability.can(action, slug)) allowed++;
    passes++;
    elapsed = performance.now() - start;
  } while (elapsed < ROUND_MS);
  sink += allowed;
  return (passes * checks.length) / (elapsed / 1000);
}

function microsecondsPerCall(build: () => unknown): number {
  for (let run = 0; run < BUILDS; run++) sink += build() === undefined ? 0 : 1;
  const samples: number[] = [];
  for (let run = 0; run < BUILDS; run++) {
    const start = performance.now();
    sink += build() === undefined ? 0 : 1;
    samples.push((performance.now() - start) * 1000);
  }
  return median(samples);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function measure(size: number) {
  const { role, denied, rawRules, checks } = scenario(size);
  const permissions = effectivePermissions({ role, denied });
  const gatehouse = compileAbility(permissions);
  const raw = createMongoAbility(rawRules);
  const disagreement = checks.find(([action, slug]) => gatehouse.can(action, slug) !== raw.can(action, slug));
  if (disagreement !== undefined) throw new Error(`The abilities disagree on ${disagreement.join(' ')}`);

  // Interleaved rounds, each side going first in turn, spread warm-up and machine noise evenly.
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 1) theirs.push(checksPerSecond(raw, checks));
    ours.push(checksPerSecond(gatehouse, checks));
    if (round % 2 === 0) theirs.push(checksPerSecond(raw, checks));
  }
  const gatehouseChecks = median(ours);
  const rawChecks = median(theirs);
  return {
    permissions: role.length,
    denied: denied.length,
    rules: { gatehouse: gatehouse.rules.length, raw: rawRules.length },
    checksPerSecond: { gatehouse: Math.round(gatehouseChecks), raw: Math.round(rawChecks), ratio: gatehouseChecks / rawChecks },
    buildMicroseconds: {
      effectivePermissions: microsecondsPerCall(() => effectivePermissions({ role, denied })),
      compileAbility: microsecondsPerCall(() => compileAbility(permissions)),
      rawCasl: microsecondsPerCall(() => createMongoAbility(rawRules)),
    },
  };
}

const results = SIZES.map(measure);
const largest = results[results.length - 1];
const targets = {
  checkRatioAtLeast: TARGET_RATIO,
  buildMsFor1000Below: TARGET_BUILD_MS,
  checkRatioMet: results.every((result) => result.checksPerSecond.ratio >= TARGET_RATIO),
  buildMet: largest !== undefined && largest.buildMicroseconds.compileAbility / 1000 < TARGET_BUILD_MS,
};

const format = (value: number, digits = 0): string => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
console.log('| permissions | rules (ours / raw) | checks/s compiled | checks/s raw CASL | ratio | compileAbility µs | raw CASL build µs | effectivePermissions µs |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const result of results) {
  const { checksPerSecond: checks, buildMicroseconds: build } = result;
  console.log(
    `| ${result.permissions} | ${result.rules.gatehouse} / ${result.rules.raw} | ${format(checks.gatehouse)} | ${format(checks.raw)} | ${format(checks.ratio, 2)}x | ${format(build.compileAbility, 1)} | ${format(build.rawCasl, 1)} | ${format(build.effectivePermissions, 1)} |`,
  );
}
console.log(`\nTargets: check ratio >= ${TARGET_RATIO}x: ${targets.checkRatioMet ? 'met' : 'MISSED'}; build from 1,000 permissions < ${TARGET_BUILD_MS} ms: ${targets.buildMet ? 'met' : 'MISSED'}`);

await writeBenchResult('engine', { node: process.version, date: new Date().toISOString(), targets, results, sink: sink > 0 }, null);
