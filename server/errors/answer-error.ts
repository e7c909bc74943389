/**
 * An error that is an answer to the caller (a refusal, a malformed request), not a fault of the
 * server: it is built without a stack trace. Nothing logs the stack of an answer, and capturing
 * one (V8 walks the stack and rebuilds every optimized frame on it) made up about a sixth of the
 * CPU a refused request costs, which a flood of refusals pays on every one.
 */
export class AnswerError extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}
