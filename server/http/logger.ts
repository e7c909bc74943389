import { pino, type Logger } from 'pino';

// Nothing logs these on purpose; redaction guards against a future log call that would.
const REDACT = ['headers.authorization', 'authorization', 'password', 'password_confirmation', 'token', '*.password', '*.password_confirmation', '*.token'];

/** The longest a line waits in the buffer: a quiet server still shows each request within a second. */
export const LOG_FLUSH_INTERVAL_MS = 1_000;

/**
 * JSON lines, one per request plus warnings and errors, on stdout or `destination` (a file path).
 * Written asynchronously and in batches, so a request never waits for a write to the terminal or
 * a pipe; the batch goes out once it holds 4 KB or once a second, whichever comes first, and the
 * server flushes what is left when it closes (`flushLogger`), so a shutdown loses no line.
 */
export function createLogger(level = 'info', destination: number | string = 1): Logger {
  const stream = pino.destination({ dest: destination, sync: false, minLength: 4096 });
  const flush = setInterval(() => {
    try {
      stream.flush();
    } catch {
      // Not open yet, or closed: the next tick (or the shutdown flush) writes what is buffered.
    }
  }, LOG_FLUSH_INTERVAL_MS);
  // The timer must not keep a process alive that has nothing else to do.
  flush.unref();
  stream.on('close', () => clearInterval(flush));
  return pino({ level, redact: REDACT }, stream);
}

/** Resolves once every line logged so far is written out. */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    try {
      logger.flush(() => resolve());
    } catch {
      // A destination that is already closed has nothing left to write.
      resolve();
    }
  });
}
