/**
 * Whether the client a request answers is still connected. The connection running the request's
 * transaction watches it, and cancels its running statement once the client has left. This is a
 * small class, not an AbortSignal: Node's EventTarget would cost every request an object graph
 * and a listener list, which nearly every request never uses.
 */
export class CallerPresence {
  #left = false;
  #watchers: (() => void)[] = [];

  /** Whether the client has gone away. */
  get left(): boolean {
    return this.#left;
  }

  /** The client went away: each watcher hears it once. */
  leave(): void {
    if (this.#left) return;
    this.#left = true;
    const watchers = this.#watchers;
    this.#watchers = [];
    for (const watcher of watchers) watcher();
  }

  watch(watcher: () => void): void {
    if (!this.#left) this.#watchers.push(watcher);
  }

  unwatch(watcher: () => void): void {
    const index = this.#watchers.indexOf(watcher);
    if (index >= 0) this.#watchers.splice(index, 1);
  }
}
