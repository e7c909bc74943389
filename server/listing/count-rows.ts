import { sql, type CompiledQuery } from 'kysely';
import { ESTIMATE_THRESHOLD, type CountMode } from '../models/count-mode.js';
import type { LooseTransaction } from '../models/loose-schema.js';
import { selectionStatement, selectRows, type Selection, type SelectionStatement } from './selection-statement.js';

export interface RowCount {
  /** Null for `count=none`. */
  total: number | null;
  /** The planner's estimate rather than a count. */
  estimated: boolean;
}

type Total = { total: string };

const EXACT: SelectionStatement<null> = { build: (selected) => selected.select((eb) => eb.fn.countAll<string>().as('total')).compile() };

/** The planner's estimate of the rows the selection holds: no row is read. */
const PLANNED: SelectionStatement<null> = { build: (selected, _shape, trx) => sql`EXPLAIN (FORMAT JSON) ${selected.selectAll()}`.compile(trx) };

/** Counting stops one row past the threshold, so its cost is bounded whatever the table's size. */
const BOUNDED: SelectionStatement<null> = {
  build: (selected, _shape, trx) =>
    trx
      .selectFrom(selected.select(sql.lit(1).as('one')).limit(ESTIMATE_THRESHOLD + 1).as('bounded'))
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .compile(),
};

const noShape = () => null;

async function total(trx: LooseTransaction, selection: Selection, statement: SelectionStatement<null>): Promise<number> {
  const [row] = await selectRows<null, Total>(trx, selection, statement, noShape);
  return Number(row!.total);
}

async function plannedCount(trx: LooseTransaction, selection: Selection): Promise<number> {
  const [row] = await selectRows<null, { 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(trx, selection, PLANNED, noShape);
  return Math.round(row!['QUERY PLAN'][0].Plan['Plan Rows']);
}

/**
 * The statements countRows may read for `mode`, for a request to send ahead: `estimated` reads the
 * planner's estimate only past the threshold, but planning alone costs less than a round trip.
 */
export function countStatements(trx: LooseTransaction, selection: Selection, mode: CountMode): CompiledQuery[] {
  const statements = { none: [], planned: [PLANNED], estimated: [BOUNDED, PLANNED], exact: [EXACT] }[mode];
  return statements.map((statement) => selectionStatement(trx, selection, statement, noShape));
}

/** Counts the rows of an index's selection the way `mode` says. */
export async function countRows(trx: LooseTransaction, selection: Selection, mode: CountMode): Promise<RowCount> {
  switch (mode) {
    case 'none':
      return { total: null, estimated: false };
    case 'planned':
      return { total: await plannedCount(trx, selection), estimated: true };
    case 'estimated': {
      const bounded = await total(trx, selection, BOUNDED);
      if (bounded <= ESTIMATE_THRESHOLD) return { total: bounded, estimated: false };
      return { total: Math.max(await plannedCount(trx, selection), ESTIMATE_THRESHOLD + 1), estimated: true };
    }
    default:
      return { total: await total(trx, selection, EXACT), estimated: false };
  }
}
