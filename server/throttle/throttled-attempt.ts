import type { Executor } from '../db/repositories/executor.js';
import type { RequestDeadline } from '../db/transactions/request-deadline.js';
import { TooManyAttemptsError } from '../errors/too-many-attempts-error.js';
import type { Services } from '../services.js';
import type { Attempter } from './throttle.js';
import type { ThrottledAction } from './throttle-limits.js';

/**
 * Counts an attempt against the limits (`Throttle.attempt`) and, when it is refused with 429,
 * counts the rejection in `gatehouse_throttle_rejections_total` by action. On the pool, `deadline`
 * bounds its statements as the request's.
 */
export async function throttledAttempt(
  services: Pick<Services, 'throttle' | 'observability'>,
  db: Executor,
  action: ThrottledAction,
  attempter: Attempter,
  deadline?: RequestDeadline,
): Promise<void> {
  try {
    await services.throttle.attempt(db, action, attempter, deadline);
  } catch (error) {
    if (error instanceof TooManyAttemptsError) services.observability.metrics?.throttled(action);
    throw error;
  }
}
