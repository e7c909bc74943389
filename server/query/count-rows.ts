import { sql } from 'kysely';
import { ESTIMATE_THRESHOLD, type CountMode } from './count-mode.js';
import type { LooseSelect, LooseTransaction } from './loose-schema.js';

export interface RowCount {
  /** Null for `count=none`. */
  total: number | null;
  /** The planner's estimate rather than a count. */
  estimated: boolean;
}

const exactCount = async (query: LooseSelect) =>
  Number((await query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow()).total);

/** The planner's estimate of the rows the query returns: no row is read. */
async function plannedCount(trx: LooseTransaction, query: LooseSelect): Promise<number> {
  const { rows } = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>`EXPLAIN (FORMAT JSON) ${query.selectAll()}`.execute(trx);
  return Math.round(rows[0]!['QUERY PLAN'][0].Plan['Plan Rows']);
}

/** Counts the rows of an index's query the way `mode` says. */
export async function countRows(trx: LooseTransaction, query: LooseSelect, mode: CountMode): Promise<RowCount> {
  switch (mode) {
    case 'none':
      return { total: null, estimated: false };
    case 'planned':
      return { total: await plannedCount(trx, query), estimated: true };
    case 'estimated': {
      // Counting stops one row past the threshold, so its cost is bounded whatever the table's size.
      const bounded = Number(
        (await trx.selectFrom(query.select(sql.lit(1).as('one')).limit(ESTIMATE_THRESHOLD + 1).as('bounded')).select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow()).total,
      );
      if (bounded <= ESTIMATE_THRESHOLD) return { total: bounded, estimated: false };
      return { total: Math.max(await plannedCount(trx, query), ESTIMATE_THRESHOLD + 1), estimated: true };
    }
    default:
      return { total: await exactCount(query), estimated: false };
  }
}
