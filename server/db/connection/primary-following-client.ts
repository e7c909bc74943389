import type pg from 'pg';
import { answerConnect } from './connect-answer.js';
import { NoPrimaryError } from './no-primary-error.js';
import type { PrimaryLocator } from './primary-locator.js';

/**
 * A pool client class that connects to the host `locator` names as the primary, and refuses a
 * host that turns out to be a standby (the old primary, demoted by a failover), so that the pool
 * follows a failover without a restart.
 */
export function primaryFollowingClient(Base: typeof pg.Client, locator: PrimaryLocator): typeof pg.Client {
  return class PrimaryFollowingClient extends Base {
    // pg's overloads (callback or promise) cannot be restated one by one.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override connect(callback?: any): any {
      return answerConnect(this, this.#connect(), callback);
    }

    async #connect(): Promise<void> {
      const target = await locator.primary();
      Object.assign(this, target);
      try {
        await super.connect();
        const { rows } = await this.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
        if (rows[0]?.standby !== false) throw new NoPrimaryError(1);
      } catch (error) {
        locator.forget(target);
        await this.end().catch(() => {});
        throw error;
      }
    }
  };
}
