import pg from 'pg';
import { ConnectionLostError } from '../../errors/connection-lost-error.js';

// An error of these severities ends the session: the server closes the connection after it.
const SESSION_ENDING = new Set(['FATAL', 'PANIC']);

const endsSession = (error: unknown): error is pg.DatabaseError => error instanceof pg.DatabaseError && SESSION_ENDING.has(error.severity ?? '');

/**
 * A connection of a command's own, outside the service's pool (migrations, an owner's
 * transaction, db verify). node-postgres reports a connection the server ends as an 'error'
 * event, which without a listener kills the process with a stack trace; here it is remembered
 * instead, and the statement it cut short, and any sent after, fail with a ConnectionLostError
 * naming the server's reason. A command done with the connection carries on.
 */
export class OwnClient extends pg.Client {
  #lost: Error | null = null;

  constructor(config: pg.ClientConfig) {
    super(config);
    this.on('error', (error: Error) => void (this.#lost ??= error));
    // Replaced on the instance, not overridden, so that the query method keeps pg's overloads.
    const query = super.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => {
      const result = query(...args);
      return result instanceof Promise ? result.catch((error: unknown) => this.#failure(error)) : result;
    }) as pg.Client['query'];
  }

  /** True once the server has ended the connection. */
  get lost(): boolean {
    return this.#lost !== null;
  }

  #failure(error: unknown): never {
    // The server's own reason reaches the statement it interrupts before the 'error' event.
    if (endsSession(error)) this.#lost ??= error;
    throw this.#lost === null ? error : new ConnectionLostError(this.#lost.message);
  }
}
