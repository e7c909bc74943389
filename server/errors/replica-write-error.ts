/**
 * A GET or HEAD handler wrote in the read-only transaction a read replica serves it in: a fault
 * of the handler (500), which the log names. Never a 503: the server is there, and trying again
 * would fail the same way.
 */
export class ReplicaWriteError extends Error {
  constructor(method: string, path: string, cause: unknown) {
    super(`${method} ${path} wrote in a read replica's read-only transaction: GET and HEAD read on a replica (docs/operations/replicas.md); write in a POST, PUT, PATCH or DELETE handler.`, { cause });
    this.name = 'ReplicaWriteError';
  }
}
