/**
 * How well one cut-off sorts two samples apart: the share of all values a threshold puts on the
 * right side, at its best, in either direction. 0.5 is chance; 1 is fully separable. (It is
 * 0.5 + D/2 for the two-sample Kolmogorov-Smirnov statistic D of equal-sized samples.)
 */
export function separability(a: readonly number[], b: readonly number[]): number {
  const points = [...a.map((value) => ({ value, inA: true })), ...b.map((value) => ({ value, inA: false }))].sort((x, y) => x.value - y.value);
  let best = 0;
  let aBelow = 0;
  let bBelow = 0;
  for (let index = 0; index <= points.length; index += 1) {
    // Only cut between distinct values.
    if (index === 0 || index === points.length || points[index]!.value !== points[index - 1]!.value) {
      const aLow = (aBelow / a.length + (b.length - bBelow) / b.length) / 2;
      best = Math.max(best, aLow, 1 - aLow);
    }
    const point = points[index];
    if (point?.inA) aBelow += 1;
    else if (point) bBelow += 1;
  }
  return best;
}
