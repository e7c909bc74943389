import pg from 'pg';
import type { HostPort } from './connection-hosts.js';
import { NoPrimaryError } from './no-primary-error.js';

// A host that does not answer within this is taken for down while the others are asked.
const PROBE_TIMEOUT_MS = 1_000;

/**
 * Which of several hosts is the primary, as libpq's `target_session_attrs=read-write` finds it:
 * the first host, in order, that is not in recovery. A failover tool (pg_auto_failover, Patroni)
 * decides which host that is; this only follows its decision. Known until a connection to it
 * fails or finds a standby there, then asked again.
 */
export class PrimaryLocator {
  readonly #hosts: readonly { target: HostPort; url: string }[];
  #known: HostPort | null = null;
  #locating: Promise<HostPort> | null = null;

  constructor(hosts: readonly { target: HostPort; url: string }[]) {
    this.#hosts = hosts;
  }

  primary(): Promise<HostPort> {
    if (this.#known) return Promise.resolve(this.#known);
    this.#locating ??= this.#locate().finally(() => {
      this.#locating = null;
    });
    return this.#locating;
  }

  /** `target` failed, or is a standby now: ask again at the next connection. */
  forget(target: HostPort): void {
    if (this.#known?.host === target.host && this.#known.port === target.port) this.#known = null;
  }

  async #locate(): Promise<HostPort> {
    for (const { target, url } of this.#hosts) {
      if (await writable(url)) return (this.#known = target);
    }
    throw new NoPrimaryError(this.#hosts.length);
  }
}

async function writable(connectionString: string): Promise<boolean> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
    return rows[0]?.standby === false;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
