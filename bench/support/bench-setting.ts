/** A `BENCH_*` setting that is not what its benchmark needs: the runner prints the message alone. */
export class BenchSettingError extends Error {}

/** A benchmark's positive integer setting from the environment (`BENCH_ROUNDS`, ...), else `fallback`. */
export function benchSetting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new BenchSettingError(`${name} must be a positive integer`);
  return value;
}
