import type { Profiler } from 'node:inspector';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SelfTime {
  name: string;
  ms: number;
  /** Share of the process's busy time (every sample but idle ones), in percent. */
  percent: number;
}

export interface ProfileSummary {
  busyMs: number;
  byModule: SelfTime[];
  topFunctions: SelfTime[];
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The module a frame's code belongs to: an npm package, a folder of this repository two levels
 * deep (`server/http`), a part of Node, or V8's own entries (`(garbage collector)`, `(program)`).
 */
export function moduleOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return `node ${url.slice('node:'.length).replace(/^internal\//, '').split('/')[0]}`;
  const path = url.startsWith('file:') ? fileURLToPath(url) : url;
  const packaged = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (packaged) return packaged[1]!;
  return inRepository(path).split(sep).slice(0, 2).join('/');
}

/** A path relative to the repository, a package's build named by its source (`server/dist/app.js` as `server/app.ts`), so profiles of either read alike. */
const inRepository = (path: string) => relative(root, path).replace(/^(engine|server)\/dist\/(.*)\.js$/, '$1/$2.ts');

/** Where a frame's code is: its file in this repository, else its module. */
const placeOf = (url: string, module: string) => (url.startsWith('file:') && !url.includes('/node_modules/') ? inRepository(fileURLToPath(url)) : module);

const ranked = (totals: Map<string, number>, busy: number, count: number): SelfTime[] =>
  [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => ({ name, ms: Math.round(micros / 100) / 10, percent: Math.round((micros / busy) * 1000) / 10 }));

/** Self time by module and the functions with the most of it, idle samples left out. */
export function summarizeProfile(profile: Profiler.Profile, { modules = 15, functions = 20 } = {}): ProfileSummary {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byModule = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  (profile.samples ?? []).forEach((id, index) => {
    const frame = frames.get(id)!;
    if (frame.functionName === '(idle)') return;
    const micros = profile.timeDeltas?.[index] ?? 0;
    const module = moduleOf(frame.url, frame.functionName);
    const name = `${frame.functionName || '(anonymous)'} (${placeOf(frame.url, module)})`;
    busy += micros;
    byModule.set(module, (byModule.get(module) ?? 0) + micros);
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  });
  return { busyMs: Math.round(busy / 1000), byModule: ranked(byModule, busy, modules), topFunctions: ranked(byFunction, busy, functions) };
}

/** The summary as lines for a terminal. */
export function printedProfile({ busyMs, byModule, topFunctions }: ProfileSummary): string {
  const lines = (entries: SelfTime[]) => entries.map(({ name, percent }) => `  ${String(percent).padStart(5)}%  ${name}`).join('\n');
  return `busy ${busyMs} ms; self time by module:\n${lines(byModule)}\ntop functions by self time:\n${lines(topFunctions)}`;
}
