/** Whether `error` is the reason `signal` was aborted with: the caller's cancellation, nothing Gatehouse did. */
export const isAbortOf = (error: unknown, signal: AbortSignal | undefined): boolean => signal?.aborted === true && error === signal.reason;

interface Listening {
  listeners: Set<() => void>;
  dispatch: () => void;
}

// One 'abort' listener per signal, however many calls share it: a service may pass one request's
// signal to many calls at once, and Node warns of a leak past ten listeners on a signal.
const listening = new WeakMap<AbortSignal, Listening>();

/** Calls `listener` when `signal` aborts; what it returns stops listening, and takes the signal's listener off with the last one. */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let entry = listening.get(signal);
  if (entry === undefined) {
    const listeners = new Set<() => void>();
    const dispatch = () => {
      listening.delete(signal);
      for (const each of listeners) each();
    };
    entry = { listeners, dispatch };
    listening.set(signal, entry);
    signal.addEventListener('abort', dispatch, { once: true });
  }
  const { listeners, dispatch } = entry;
  const call = () => listener();
  listeners.add(call);
  return () => {
    listeners.delete(call);
    if (listeners.size > 0 || listening.get(signal) !== entry) return;
    listening.delete(signal);
    signal.removeEventListener('abort', dispatch);
  };
}

/**
 * `work`, given up on as soon as `signal` aborts (rejecting with its reason, as fetch does): the
 * work itself goes on, so other callers awaiting the same promise still get its outcome.
 */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const stop = onAbort(signal, () => reject(signal.reason as Error));
    work.then(resolve, reject).finally(stop);
  });
}

/**
 * Work shared by the callers awaiting it, each able to give up by its own signal: once all of them
 * have, the work's signal aborts too, so nothing goes on that no one waits for (it could otherwise
 * time out later and mark Gatehouse unavailable). `ended` runs once, when the work settles or is
 * cancelled, so the next caller can start it afresh.
 */
export class SharedWork<T> {
  private readonly controller = new AbortController();
  private readonly result: Promise<T>;
  private waiting = 0;
  private over = false;

  constructor(
    work: (signal: AbortSignal) => Promise<T>,
    private readonly ended: () => void,
  ) {
    this.result = work(this.controller.signal);
    // Also handles the rejection of work no one awaits any more.
    this.result.then(this.end, this.end);
  }

  /** The work's outcome, or `signal`'s reason once it aborts. */
  async join(signal: AbortSignal | undefined): Promise<T> {
    this.waiting += 1;
    try {
      return await abortable(this.result, signal);
    } finally {
      this.waiting -= 1;
      if (this.waiting === 0 && !this.over) {
        this.controller.abort();
        this.end();
      }
    }
  }

  private readonly end = () => {
    if (this.over) return;
    this.over = true;
    this.ended();
  };
}
