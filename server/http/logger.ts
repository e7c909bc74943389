import { pino, type Logger } from 'pino';

// Nothing logs these on purpose; redaction guards against a future log call that would.
const REDACT = ['headers.authorization', 'authorization', 'password', 'password_confirmation', 'token', '*.password', '*.password_confirmation', '*.token'];

/** JSON lines on stdout, one per request plus warnings and errors. */
export function createLogger(level = 'info'): Logger {
  return pino({ level, redact: REDACT });
}
