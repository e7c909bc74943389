import { Kysely, SingleConnectionProvider, type DatabaseConnection, type Dialect, type Driver, type KyselyConfig, type QueryExecutor } from 'kysely';

/** What a connection's own Kysely refuses: it runs statements on its connection, and nothing else. */
export class BoundConnectionError extends Error {
  constructor(what: string) {
    super(`A connection's own Kysely cannot ${what}: take a connection or a transaction from the pool's.`);
  }
}

const refuse = (what: string) => () => {
  throw new BoundConnectionError(what);
};

/** Never asked for anything: a bound Kysely begins no transaction of its own, introspects nothing and destroys no pool. */
const NO_DRIVER: Driver = {
  init: refuse('initialize a driver'),
  acquireConnection: refuse('acquire a connection'),
  beginTransaction: refuse('begin a transaction'),
  commitTransaction: refuse('commit a transaction'),
  rollbackTransaction: refuse('roll back a transaction'),
  releaseConnection: refuse('release a connection'),
  destroy: refuse('destroy the pool'),
};
const NO_DIALECT: Dialect = {
  createDriver: refuse('create a driver'),
  createQueryCompiler: refuse('create a query compiler'),
  createAdapter: refuse('create an adapter'),
  createIntrospector: refuse('introspect the database'),
};
const CONFIG: KyselyConfig = { dialect: NO_DIALECT };

/** A Kysely that runs its statements through `executor` alone, asking no driver or dialect for anything. */
export const kyselyOn = <S>(executor: QueryExecutor): Kysely<S> => new Kysely<S>({ config: CONFIG, dialect: NO_DIALECT, driver: NO_DRIVER, executor });

/** Each pool's connections' own Kysely, kept as long as the connection lives. */
const bound = new WeakMap<object, WeakMap<DatabaseConnection, Kysely<never>>>();

/** The connections' own Kyselys: each runs on the one connection a transaction of its holds. */
const connectionsOwn = new WeakSet<object>();

/** Whether `db` runs on one connection already, a Kysely transaction's or a connection's own (whose caller holds it in a transaction). */
export const holdsConnection = <S>(db: Kysely<S>): boolean => db.isTransaction || connectionsOwn.has(db);

/**
 * Runs fn on one connection of `db`'s pool, as `db.connection().execute(fn)` does, with the
 * connection's own Kysely, built the first time the pool hands the connection out: Kysely builds
 * and freezes a new one on every use, some 2% of a read's CPU.
 */
export function onConnection<S, T>(db: Kysely<S>, fn: (connection: Kysely<S>) => Promise<T>): Promise<T> {
  // Its connection is in a transaction: a BEGIN there is a no-op, and the COMMIT after it would
  // end that transaction early, its work committed and its tenant context gone.
  if (holdsConnection(db)) return Promise.reject(new BoundConnectionError('open a transaction on its connection, which is in one already'));
  const executor = db.getExecutor();
  let ofPool = bound.get(executor);
  if (!ofPool) bound.set(executor, (ofPool = new WeakMap()));
  const known = ofPool;
  return executor.provideConnection((connection) => {
    let own = known.get(connection) as Kysely<S> | undefined;
    if (!own) {
      own = kyselyOn<S>(executor.withConnectionProvider(new SingleConnectionProvider(connection)));
      known.set(connection, own as unknown as Kysely<never>);
      connectionsOwn.add(own);
    }
    return fn(own);
  });
}
