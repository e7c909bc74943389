import { isAxiosError } from 'axios';

const MAX_RETRIES = 2;

/**
 * Retries only what may heal by itself (no answer, 5xx). A 4xx answers the same the next time, and
 * repeating a 401 would run the session-expiry handling once per attempt.
 */
export function retryTransient(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES || !isAxiosError(error)) return false;
  const status = error.response?.status;
  return status === undefined || status >= 500;
}
