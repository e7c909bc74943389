/**
 * Answers a `connect(callback?)` override of a pg client class from its own asynchronous
 * connect: the pool calls it with a callback, everyone else for the promise.
 */
export function answerConnect<C>(client: C, connected: Promise<void>, callback: ((error: Error | null, client?: C) => void) | undefined): Promise<void> | undefined {
  if (!callback) return connected;
  connected.then(() => callback(null, client), callback);
  return undefined;
}
