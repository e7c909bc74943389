import { pino, type Logger } from 'pino';

// Nothing logs these on purpose; redaction guards against a future log call that would.
const REDACT = ['headers.authorization', 'authorization', 'password', 'password_confirmation', 'token', '*.password', '*.password_confirmation', '*.token'];

/**
 * JSON lines on stdout, one per request plus warnings and errors. Written asynchronously and in
 * batches, so a request never waits for a write to the terminal or a pipe; the server flushes
 * what is buffered when it closes (`flushLogger`), so a shutdown loses no line.
 */
export function createLogger(level = 'info'): Logger {
  return pino({ level, redact: REDACT }, pino.destination({ dest: 1, sync: false, minLength: 4096 }));
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
