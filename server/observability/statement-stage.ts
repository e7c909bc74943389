/**
 * What a statement text is to its transaction. A request's opening is BEGIN and whatever travels
 * with it (`db/transactions/tenant-transaction.ts`); its text carries the request's ids as literals, so only
 * `statement` texts (whose values are always parameters) are ever shown. Kysely's own
 * transactions send the same words in lower case.
 */
export type StatementStage = 'opening' | 'statement' | 'commit' | 'rollback';

const BOUNDARY = /^(begin|commit|rollback)\b/i;
const STAGES: Readonly<Record<string, StatementStage>> = { begin: 'opening', commit: 'commit', rollback: 'rollback' };

// The first letters of BEGIN, COMMIT and ROLLBACK, lower-cased (a letter's code with 0x20 set).
const BOUNDARY_INITIALS = new Set(['b', 'c', 'r'].map((letter) => letter.charCodeAt(0)));

export function statementStage(text: string): StatementStage {
  // Called for every statement sent: most are reads and writes, told apart by their first letter.
  if (!BOUNDARY_INITIALS.has(text.charCodeAt(0) | 0x20)) return 'statement';
  const boundary = BOUNDARY.exec(text)?.[1];
  return boundary === undefined ? 'statement' : STAGES[boundary.toLowerCase()]!;
}
