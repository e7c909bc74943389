/** A list test judged: what it got, and why it failed. */
export interface ListVerdict {
  readonly expected: string;
  readonly actual: string;
  readonly passed: boolean;
  /** What differs: the ids the two computations disagree on, else those missing from or not in `expect`. */
  readonly difference: string;
}

const sorted = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** `[1, 4]`: a list of ids as a test file writes it. */
export const idList = (ids: readonly number[]) => `[${sorted(ids).join(', ')}]`;

/** The ids of `ids` that `other` lacks. */
const without = (ids: readonly number[], other: readonly number[]) => sorted(ids.filter((id) => !other.includes(id)));

/**
 * Judges a list computed twice, in memory (the compiled CASL rules) and in SQL (the server's
 * filter): it passes only when both are the expected list. The two disagreeing is reported
 * first, with the ids each alone holds, since it means the rules answer differently by route.
 */
export function judgeList(expected: readonly number[], memory: readonly number[], inSql: readonly number[]): ListVerdict {
  const onlyMemory = without(memory, inSql);
  const onlySql = without(inSql, memory);
  if (onlyMemory.length > 0 || onlySql.length > 0) {
    const sides = [onlyMemory.length > 0 ? `${onlyMemory.join(', ')} in memory only` : '', onlySql.length > 0 ? `${onlySql.join(', ')} in SQL only` : ''];
    return {
      expected: idList(expected),
      actual: `${idList(memory)} in memory, ${idList(inSql)} in SQL`,
      passed: false,
      difference: `the in-memory check and the SQL filter disagree: ${sides.filter(Boolean).join('; ')}`,
    };
  }
  const missing = without(expected, memory);
  const unexpected = without(memory, expected);
  const parts = [missing.length > 0 ? `missing ${missing.join(', ')}` : '', unexpected.length > 0 ? `not expected ${unexpected.join(', ')}` : ''];
  return { expected: idList(expected), actual: idList(memory), passed: missing.length === 0 && unexpected.length === 0, difference: parts.filter(Boolean).join('; ') };
}
