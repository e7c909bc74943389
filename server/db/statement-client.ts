import pg from 'pg';

/** How many distinct statement texts get a name; the rest still run, unnamed. */
const NAMED_STATEMENTS = 2_000;

/**
 * Statement texts and their names, shared by every connection of the process. A text always
 * keeps the name it first got, so a connection that has parsed it once reuses the parse and the
 * plan; the registry is bounded so an endless variety of query shapes cannot grow it (or each
 * connection's set of prepared statements in the server) without end.
 */
const names = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < NAMED_STATEMENTS) names.set(text, (name = `gatehouse_${names.size + 1}`));
  return name;
}

type QueryResults = pg.QueryResult | pg.QueryResult[];

/** Called once a statement is answered: the rows it returned or changed (null for BEGIN and the like), or its failure. */
export type StatementDone = (rows: number | null, failed: boolean) => void;

/**
 * Told of each statement a connection sends (its text, never its values), for metrics, traces
 * and debug logs; what it returns is called when the answer arrives. Undefined: nothing to time.
 */
export interface StatementObserver {
  sent(connection: object, text: string): StatementDone | undefined;
}

/**
 * A pg client class for the service's pool. With `prepare`, every statement with parameters is
 * sent as a named prepared statement: PostgreSQL parses and plans it once per connection instead
 * of on every request. Poolers that move a client between server connections inside a session
 * (PgBouncer before 1.21 in transaction mode) cannot carry those, hence the switch.
 *
 * A string of several statements (which pg sends in one simple-protocol round trip) answers with
 * its last statement's result, so a caller can open a transaction and read in one round trip.
 */
export function statementClient({ prepare, observer }: { prepare: boolean; observer?: StatementObserver }): typeof pg.Client {
  return class StatementClient extends pg.Client {
    // pg's overloads cannot be restated one by one; every form but (text, values) passes through.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(config: any, values?: any, callback?: any): any {
      if (typeof config !== 'string' || typeof values === 'function' || callback !== undefined) {
        return (super.query as (...args: unknown[]) => unknown)(config, values, callback);
      }
      const parameters = Array.isArray(values) ? values : [];
      const send = super.query as (query: string | pg.QueryConfig) => Promise<QueryResults>;
      // pg copies a config object property by property on every query; a bare text (a
      // transaction's opening, COMMIT) needs none.
      const name = prepare && parameters.length > 0 ? statementName(config) : undefined;
      const done = observer?.sent(this, config);
      const sent = parameters.length === 0 ? send.call(this, config) : send.call(this, { text: config, values: parameters, ...(name ? { name } : {}) });
      const answered = sent.then((result) => (Array.isArray(result) ? result[result.length - 1]! : result));
      if (!done) return answered;
      return answered.then(
        (result) => {
          done(result.rowCount, false);
          return result;
        },
        (error: unknown) => {
          done(null, true);
          throw error;
        },
      );
    }
  };
}
