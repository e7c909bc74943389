import { context, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { StatementDone, StatementObserver } from '../db/connection/statement-client.js';
import { requestScope } from './request-scope.js';
import { statementStage } from './statement-stage.js';

// A statement's first word, after any indentation a multi-line text starts with.
const VERB = /^\s*(\w+)/;

/**
 * Each statement of a request as a span under the request's (when `tracer` is given) and as a
 * debug line of the request's (when the request runs in `requestScope`): its stage, its text for
 * a statement (placeholders, never values), its duration and its row count.
 */
export function statementSpans(tracer: Tracer | null): StatementObserver {
  return {
    sent(_connection, text): StatementDone | undefined {
      const log = requestScope.getStore();
      const active = tracer && trace.getSpan(context.active()) ? tracer : null;
      if (!log && !active) return undefined;
      const stage = statementStage(text);
      const shown = stage === 'statement' ? text : undefined;
      const span = active?.startSpan(stage === 'statement' ? (VERB.exec(text)?.[1] ?? 'statement').toUpperCase() : stage, {
        attributes: { 'db.system': 'postgresql', 'gatehouse.stage': stage, ...(shown === undefined ? {} : { 'db.query.text': shown }) },
      });
      const started = process.hrtime.bigint();
      return (rows, failed) => {
        if (span) {
          if (rows !== null) span.setAttribute('db.response.returned_rows', rows);
          if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        }
        log?.debug({ stage, sql: shown, rows, failed: failed || undefined, durationMs: Number(process.hrtime.bigint() - started) / 1e6 }, stage);
      };
    },
  };
}
