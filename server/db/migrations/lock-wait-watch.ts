import { OwnClient } from '../connection/own-client.js';

/** A session holding a lock another one waits for. */
export interface LockHolder {
  pid: number;
  role: string;
  state: string;
}

// How often the watch asks whether the migration waits; its wait is known to within this.
const POLL_MS = 100;

/** A migration's statement that waited too long for a lock, and who held it. */
export class LockWaitError extends Error {
  constructor(waitedMs: number, holders: readonly LockHolder[]) {
    const held = holders.map((holder) => `backend ${holder.pid} (role ${holder.role}, ${holder.state})`).join(', ');
    const terminate = holders.map((holder) => `pg_terminate_backend(${holder.pid})`).join(', ');
    super(`it waited ${waitedMs / 1000} s for a lock held by ${held}; end that session (SELECT ${terminate}) or let it finish, then migrate again.`);
    this.name = 'LockWaitError';
  }
}

/**
 * Watches one backend from a connection of its own while a migration runs on it: once that
 * backend has waited for a lock longer than `timeoutMs`, the watch notes who holds the lock and
 * cancels the statement, so any login's open transaction (an analyst's idle session, among others)
 * fails the migration with their names instead of holding it up forever. A statement that is
 * slow for any other reason is left alone.
 */
export class LockWaitWatch {
  private client: OwnClient | null = null;

  constructor(
    private readonly connectionString: string,
    /** The backend the migrations run on. */
    private readonly pid: number,
    private readonly timeoutMs: number,
  ) {}

  /** Runs fn, which works on the watched backend; a lock wait past the timeout rejects with a LockWaitError. */
  async during<T>(fn: () => Promise<T>): Promise<T> {
    const { pid } = this;
    const client = await this.connected();
    let holders: LockHolder[] | null = null;
    let waitingSince: number | null = null;
    let polling = Promise.resolve();
    const poll = async () => {
      const { rows } = await client.query<LockHolder>(
        'SELECT pid, usename::text AS role, state FROM pg_stat_activity WHERE pid = ANY (pg_blocking_pids($1)) ORDER BY pid',
        [pid],
      );
      if (rows.length === 0) return void (waitingSince = null);
      waitingSince ??= Date.now();
      if (holders === null && Date.now() - waitingSince >= this.timeoutMs) {
        holders = rows;
        await client.query('SELECT pg_cancel_backend($1)', [pid]);
      }
    };
    const timer = setInterval(() => (polling = polling.then(poll, () => {})), POLL_MS);
    try {
      return await fn().catch((error: unknown) => {
        throw holders === null ? error : new LockWaitError(this.timeoutMs, holders);
      });
    } finally {
      clearInterval(timer);
      await polling.catch(() => {});
    }
  }

  async close(): Promise<void> {
    await this.client?.end();
    this.client = null;
  }

  /** The watch's connection; one the server ended is replaced, so the next statement is watched again. */
  private async connected(): Promise<OwnClient> {
    if (this.client && !this.client.lost) return this.client;
    const client = new OwnClient({ connectionString: this.connectionString });
    await client.connect();
    return (this.client = client);
  }
}
