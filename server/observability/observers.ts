import type { StatementObserver } from '../db/connection/statement-client.js';

/** Several observers as one; undefined when there are none, so the pool's clients skip observing. */
export function observers(...each: (StatementObserver | null)[]): StatementObserver | undefined {
  const present = each.filter((observer): observer is StatementObserver => observer !== null);
  if (present.length <= 1) return present[0];
  return {
    sent(connection, text) {
      const done = present.map((observer) => observer.sent(connection, text)).filter((callback) => callback !== undefined);
      return done.length === 0 ? undefined : (rows, failed) => done.forEach((callback) => callback(rows, failed));
    },
  };
}
