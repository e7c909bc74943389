/**
 * The calls holding one of a client's `size` connections, and the others waiting in line for one,
 * first come first served. A call that gives up waiting (timed out, cancelled, the client closed)
 * leaves the line at once: it holds up no one behind it, and no connection is opened for it.
 */
export class ConnectionLine {
  private holding = 0;
  private readonly waiting = new Set<() => void>();

  constructor(private readonly size: number) {}

  /** Runs `start` once a connection is this call's, maybe at once; what it returns leaves the line (nothing once started). */
  enter(start: () => void): () => void {
    if (this.waiting.size === 0 && this.holding < this.size) {
      this.holding += 1;
      start();
      return () => {};
    }
    this.waiting.add(start);
    return () => this.waiting.delete(start);
  }

  /**
   * A call is done with its connection. The next in line starts on a microtask, so the calls that
   * `close()` settles together have all left the line first, and none of them is started.
   */
  release(): void {
    this.holding -= 1;
    queueMicrotask(() => this.admit());
  }

  private admit(): void {
    for (const start of this.waiting) {
      if (this.holding >= this.size) return;
      this.waiting.delete(start);
      this.holding += 1;
      start();
    }
  }
}
