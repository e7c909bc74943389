/** Whether `error` is the reason `signal` was aborted with: the caller's cancellation, nothing Gatehouse did. */
export const isAbortOf = (error: unknown, signal: AbortSignal | undefined): boolean => signal?.aborted === true && error === signal.reason;

/**
 * `work`, given up on as soon as `signal` aborts (rejecting with its reason, as fetch does): the
 * work itself goes on, so other callers awaiting the same promise still get its outcome.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
