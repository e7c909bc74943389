/**
 * None of a connection string's hosts takes writes right now (a failover is under way): the
 * request answers 503 with Retry-After. SQLSTATE 08001, as libpq reports it, marks it as the
 * database being unreachable rather than a wrong query.
 */
export class NoPrimaryError extends Error {
  readonly code = '08001';

  constructor(hosts: number) {
    super(`None of the ${hosts} database hosts accepts writes.`);
    this.name = 'NoPrimaryError';
  }
}
