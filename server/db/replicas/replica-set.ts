import { sql, type Kysely } from 'kysely';
import type { Database } from '../connection/database.js';
import type { Schema } from '../schema.js';
import { ConfigError } from '../../errors/config-error.js';
import { replicaName } from './replica-config.js';
import { walPosition, type WalPosition } from './wal-position.js';

// A replica that refuses connections, or falls behind, is skipped from the next poll on; one that
// stops answering, once it has not answered for a second. A slow answer on a busy machine is no
// reason to skip it sooner.
const POLL_INTERVAL_MS = 250;
const SILENCE_MS = 1_000;

/** One standby as the service last saw it. */
export interface ReplicaState {
  /** host:port of its URL: what metrics and logs call it (never its login). */
  readonly name: string;
  /** Answered the last poll, in recovery, and within the lag bound. */
  usable: boolean;
  /** How far it has replayed the primary's WAL; only ever grows while it stays a standby. */
  replayed: WalPosition | null;
  /** Seconds behind the primary: 0 once it has replayed what the primary had, else the age of its last replayed transaction. */
  lagSeconds: number;
  /** Reads it served. */
  reads: number;
}

/** A replica as this set keeps it: its state, its pool, its poll's connection, and whether a poll of it is under way. */
interface Kept {
  readonly state: ReplicaState;
  readonly database: Database;
  /** One connection of its own for the polls: reads holding every pooled connection must not make a busy server look silent. */
  readonly probe: Database;
  polling: boolean;
  /** When it last answered a poll (ms since the epoch). */
  answeredAt: number;
  /** When a poll last found it caught up with the primary (ms since the epoch); null: not since it was first polled. */
  caughtUpAt: number | null;
  /** Its last answer named another database than the primary's (`IDENTITY`): it never serves a read. */
  foreign: boolean;
}

export interface Replica {
  readonly state: ReplicaState;
  readonly db: Kysely<Schema>;
}

interface PollRow {
  identity: string;
  standby: boolean;
  replayed: string | null;
  age: number | null;
}

/**
 * How far behind a replica is that has not replayed what the primary had: the age of the last
 * transaction it replayed, or for how long it has been behind, whichever is less. The age alone
 * says nothing right after a quiet spell (the last transaction replayed may be an hour old, or
 * none since the standby started), when the replica has only just fallen behind.
 */
function behindFor(ageSeconds: number | null, caughtUpAt: number | null): number {
  const since = caughtUpAt === null ? Number.POSITIVE_INFINITY : (Date.now() - caughtUpAt) / 1000;
  return Math.min(ageSeconds ?? Number.POSITIVE_INFINITY, since);
}

/**
 * Which database a server holds: its cluster's system identifier and the database's name. A
 * physical standby, promoted or not, shares both with its primary; a URL naming another database
 * or another cluster's standby would answer reads from data that is not the primary's.
 */
const IDENTITY = sql<string>`(pg_control_system()).system_identifier::text || '/' || current_database()`;

const SILENT = Symbol('no answer yet');

function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof SILENT> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<typeof SILENT>((resolve) => {
    timer = setTimeout(() => resolve(SILENT), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/**
 * The read replicas and what the service knows of them. A poll reads the primary's WAL position,
 * then each standby's replay position and the age of its last replayed transaction; a server not
 * known to hold the primary's database (`IDENTITY`) is never used. Reads are handed to the
 * standbys that are usable, in turn. Positions only grow, so a replica this set says has replayed
 * a position has, whatever happened since the poll.
 */
export class ReplicaSet {
  readonly #replicas: Kept[];
  readonly #primary: Kysely<Schema>;
  readonly #maxLagSeconds: number;
  /** The primary's `IDENTITY`, once it has answered a poll: a failover keeps it. */
  #primaryIdentity: string | null = null;
  #primaryReads = 0;
  #turn = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(primary: Kysely<Schema>, replicas: readonly { url: string; database: Database; probe: Database }[], maxLagMs: number) {
    this.#primary = primary;
    this.#maxLagSeconds = maxLagMs / 1000;
    this.#replicas = replicas.map(({ url, database, probe }) => ({
      state: { name: replicaName(url), usable: false, replayed: null, lagSeconds: Number.POSITIVE_INFINITY, reads: 0 },
      database,
      probe,
      polling: false,
      answeredAt: 0,
      caughtUpAt: null,
      foreign: false,
    }));
  }

  /**
   * Polls now and then every quarter second; resolves once the first poll is done, so the first
   * reads can use the replicas. A replica that answered it with another database than the
   * primary's is a ConfigError: the URL is wrong, and would stay wrong.
   */
  async start(): Promise<void> {
    await this.poll();
    const foreign = this.#replicas.find((replica) => replica.foreign);
    if (foreign) {
      throw new ConfigError(
        `replicas.urls names ${foreign.state.name}, which is no standby of the primary's database: it holds another database, or another cluster's. List the primary's hot standbys, each with the primary's database name.`,
      );
    }
    this.#timer = setInterval(() => void this.poll(), POLL_INTERVAL_MS);
    this.#timer.unref();
  }

  async poll(): Promise<void> {
    const primary = await sql<{ position: string; identity: string }>`SELECT pg_current_wal_lsn()::text AS position, ${IDENTITY} AS identity`
      .execute(this.#primary)
      .then(({ rows }) => {
        this.#primaryIdentity = rows[0]!.identity;
        return walPosition(rows[0]!.position);
      })
      .catch(() => null);
    await Promise.all(this.#replicas.map((replica) => this.#pollReplica(replica, primary)));
  }

  async #pollReplica(replica: Kept, primary: WalPosition | null): Promise<void> {
    if (replica.polling) return;
    replica.polling = true;
    const { state } = replica;
    try {
      const answer = await within(
        sql<PollRow>`SELECT ${IDENTITY} AS identity, pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed,
          extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp())::float8 AS age`.execute(replica.probe.db),
        SILENCE_MS,
      );
      if (answer === SILENT) {
        if (Date.now() - replica.answeredAt >= SILENCE_MS) {
          Object.assign(state, { usable: false, lagSeconds: Number.POSITIVE_INFINITY });
          // The reads already sent to it would wait forever: they fail now, and run on the primary.
          // So does the poll, whose connection the next one would otherwise wait behind.
          replica.database.cut();
          replica.probe.cut();
        }
        return;
      }
      replica.answeredAt = Date.now();
      const row = answer.rows[0]!;
      replica.foreign = this.#primaryIdentity !== null && row.identity !== this.#primaryIdentity;
      const copy = this.#primaryIdentity !== null && !replica.foreign;
      // A server that left recovery was promoted: it is no replica of this primary any more.
      state.replayed = copy && row.standby && row.replayed !== null ? walPosition(row.replayed) : null;
      const caughtUp = state.replayed !== null && primary !== null && state.replayed >= primary;
      if (caughtUp) replica.caughtUpAt = Date.now();
      state.lagSeconds = state.replayed === null ? Number.POSITIVE_INFINITY : caughtUp ? 0 : behindFor(row.age, replica.caughtUpAt);
      state.usable = state.replayed !== null && state.lagSeconds <= this.#maxLagSeconds;
    } catch {
      Object.assign(state, { usable: false, lagSeconds: Number.POSITIVE_INFINITY });
    } finally {
      replica.polling = false;
    }
  }

  /**
   * A replica for a read, in turn among the usable ones; with `after`, only one that has replayed
   * that position (the caller's last write). Null: read from the primary, counted as its read.
   */
  choose(after: WalPosition | null): Replica | null {
    const count = this.#replicas.length;
    for (let step = 0; step < count; step++) {
      const replica = this.#replicas[(this.#turn + step) % count]!;
      const { state } = replica;
      if (!state.usable || (after !== null && (state.replayed === null || state.replayed < after))) continue;
      this.#turn = (this.#turn + step + 1) % count;
      return { state, db: replica.database.db };
    }
    this.#primaryReads++;
    return null;
  }

  /** A read the replica began to answer: its own, whether it then succeeds or fails. */
  served(replica: Replica): void {
    replica.state.reads++;
  }

  /**
   * A replica whose connection failed before the read began: skipped, its lag unknown (+Inf),
   * until a poll finds it answering again; the read runs on the primary, and counts as its.
   */
  lost(replica: Replica): void {
    Object.assign(replica.state, { usable: false, lagSeconds: Number.POSITIVE_INFINITY });
    this.#primaryReads++;
  }

  /** Each replica's state, and the reads the primary served instead. */
  stats(): { replicas: readonly ReplicaState[]; primaryReads: number } {
    return { replicas: this.#replicas.map(({ state }) => state), primaryReads: this.#primaryReads };
  }

  async close(options?: { force?: boolean }): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all(this.#replicas.flatMap(({ database, probe }) => [database.close(options), probe.close(options)]));
  }
}
