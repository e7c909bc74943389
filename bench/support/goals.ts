/** A figure a benchmark must reach: at least or at most a bound. */
export interface Goal {
  name: string;
  bound: 'at least' | 'at most';
  target: number;
  /** Null when the run left the figure out (BENCH_ONLY). */
  measured: number | null | undefined;
}

export interface Verdict {
  target: string;
  measured: number | null;
  verdict: 'met' | 'missed' | 'not measured';
}

export function verdictOf({ bound, target, measured }: Goal): Verdict {
  const met = measured === null || measured === undefined ? null : bound === 'at least' ? measured >= target : measured <= target;
  return { target: `${bound} ${target}`, measured: measured ?? null, verdict: met === null ? 'not measured' : met ? 'met' : 'missed' };
}

/** The goals as aligned lines for a terminal. */
export function printedGoals(verdicts: Record<string, Verdict>): string {
  const width = Math.max(...Object.keys(verdicts).map((name) => name.length));
  return Object.entries(verdicts)
    .map(([name, { target, measured, verdict }]) => `${name.padEnd(width)}  ${String(measured ?? '-').padStart(7)}  (${target})  ${verdict}`)
    .join('\n');
}
