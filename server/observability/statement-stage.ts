/**
 * What a statement text is to its transaction. A request's opening is BEGIN and whatever travels
 * with it (`db/with-tenant.ts`); its text carries the request's ids as literals, so only
 * `statement` texts (whose values are always parameters) are ever shown.
 */
export type StatementStage = 'opening' | 'statement' | 'commit' | 'rollback';

export function statementStage(text: string): StatementStage {
  if (text.startsWith('BEGIN')) return 'opening';
  if (text === 'COMMIT') return 'commit';
  if (text === 'ROLLBACK') return 'rollback';
  return 'statement';
}
