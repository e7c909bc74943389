import type { Logger } from 'pino';

/**
 * The logger for lines whose every field its caller picks and none is a secret (the request line,
 * the decision log's events): they skip the logger's redaction, which guards the lines whose
 * fields are not known in advance. Matching its wildcard paths against every line cost about 2%
 * of a show's CPU, and about 8% of a refused request's.
 */
export const unredactedLines = (logger: Logger): Logger => logger.child({}, { redact: [] });
