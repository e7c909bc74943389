/**
 * The server ended a connection a command was still using (pg_terminate_backend, a shutdown, its
 * database dropped): what ran on it stopped, and nothing more can. `reason` is the server's word.
 */
export class ConnectionLostError extends Error {
  constructor(readonly reason: string) {
    super(`database connection lost: ${reason}`);
    this.name = 'ConnectionLostError';
  }
}
