import { LRUCache } from 'lru-cache';
import pg from 'pg';
import type { CompiledQuery } from 'kysely';
import { READ_AHEAD, SENT_AHEAD, StatementAfterCommitError, type Opening, type OpeningAhead } from '../transactions/read-ahead.js';
import type { CallerPresence } from './caller-presence.js';
import { sendCancelRequest, type BackendKey } from './cancel-request.js';
import { StatementBatch, type PreparedStatements } from './statement-batch.js';

/** How many statement texts keep their names; the least recently used one goes first. */
const NAMED_STATEMENTS = 2_000;

/**
 * Statement texts and their names, shared by every connection of the process, so a connection
 * that has parsed a text once reuses the parse and the plan. A member can send statements of
 * endless shapes: the least recently used text is forgotten (the registry kept the first 2,000
 * for good, and then every other tenant's new statements went unprepared until a restart). A
 * name is never given again, so a connection still holding a forgotten text's name never runs
 * it for another text; its own bound (`PREPARED_PER_CONNECTION`) closes it in time.
 */
const names = new LRUCache<string, string>({ max: NAMED_STATEMENTS });
let named = 0;

function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) names.set(text, (name = `gatehouse_${(named += 1)}`));
  return name;
}

type QueryResults = pg.QueryResult | pg.QueryResult[];

/** Called once a statement is answered: the rows it returned or changed (null for BEGIN and the like), or its failure. */
export type StatementDone = (rows: number | null, failed: boolean) => void;

/**
 * Told of each statement a connection sends (its text, never its values), for metrics, traces
 * and debug logs; what it returns is called when the answer arrives. Undefined: nothing to time.
 */
export interface StatementObserver {
  sent(connection: object, text: string): StatementDone | undefined;
}

/** A statement sent ahead, waiting for the code that reads it. */
interface SentAhead {
  key: string;
  answer: Promise<pg.QueryResult>;
}

const bigintAsText = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value);

/**
 * A statement's text and values as one string. Values are a statement's own (numbers, text,
 * arrays, dates), never cyclic; a bigint has no JSON of its own, and is written by the replacer,
 * which only a statement holding one pays for: JSON.stringify is several times slower with one.
 */
function statementKey(text: string, values: readonly unknown[]): string {
  let json: string;
  try {
    json = JSON.stringify(values);
  } catch {
    json = JSON.stringify(values, bigintAsText);
  }
  return `${text}\u0000${json}`;
}

const ENDS_TRANSACTION = new Set(['COMMIT', 'ROLLBACK']);

/** The answer of a read-ahead without an opening: it only sends. */
const NOTHING_SENT = { command: 'SELECT', rowCount: 0, oid: 0, fields: [], rows: [] } as pg.QueryResult;

/**
 * A pg client class for the service's pool. With `prepare`, every statement with parameters is
 * sent as a named prepared statement: PostgreSQL parses and plans it once per connection instead
 * of on every request. Poolers that move a client between server connections inside a session
 * (PgBouncer before 1.21 in transaction mode) cannot carry those, hence the switch.
 *
 * A string of several statements (which pg sends in one simple-protocol round trip) answers with
 * its last statement's result, so a caller can open a transaction and read in one round trip.
 *
 * The client runs in pg's pipeline mode: a query is written at once, not after the answer to the
 * one before, so a transaction's opening, a read's statements and its COMMIT go out in one write
 * (`read-ahead.ts`) and are answered in order. Its statements with parameters are written by the
 * client itself (`statement-batch.ts`): a read's statements as Parse (a name's first use on the
 * connection only), Bind, Describe and Execute each, closed by ONE Sync, so PostgreSQL answers one
 * ReadyForQuery for them all, not one each. The opening and COMMIT stay simple-protocol texts
 * with a Sync of their own: an error in the reads skips the rest of their batch, COMMIT still
 * runs and answers as a rollback, and the connection is out of the transaction.
 *
 * A request's transaction opened with its caller's presence (`read-ahead.ts`) watches it until its
 * COMMIT or ROLLBACK: a caller that goes away cancels the statement the connection is running,
 * with the protocol's cancel request, and the transaction's end is sent only once that request
 * has reached the server, so the cancel can never stop a statement of the connection's next work.
 */
export function statementClient({ prepare, observer }: { prepare: boolean; observer?: StatementObserver }): typeof pg.Client {
  return class StatementClient extends pg.Client {
    #ahead: SentAhead[] = [];
    /** The prepared statements this connection has a Parse for, and their rows' shapes (`statement-batch.ts`). */
    readonly #prepared: PreparedStatements = new Map();
    /** The read-ahead's COMMIT is on its way: no other statement may follow it in this transaction. */
    #committing = false;
    /** Statements sent and not answered yet. */
    #running = 0;
    /** The client of the request whose transaction the connection runs, when it watches it. */
    #caller: CallerPresence | null = null;
    /** A cancel request sent for the watched caller, until the server has taken it. */
    #cancelling: Promise<void> | null = null;
    readonly #callerLeft = () => {
      if (this.#running > 0) this.#cancelling ??= sendCancelRequest(this as unknown as BackendKey);
    };

    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === 'string' ? { connectionString: config } : config), pipeline: true });
    }

    // pg's overloads cannot be restated one by one; every form but (text, values) passes through.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(config: any, values?: any, callback?: any): any {
      if (typeof config !== 'string' || typeof values === 'function' || callback !== undefined) {
        return (super.query as (...args: unknown[]) => unknown)(config, values, callback);
      }
      const parameters: unknown[] = Array.isArray(values) ? values : [];
      if (config === READ_AHEAD) return this.#readAhead(parameters[0] as OpeningAhead);
      if (config === SENT_AHEAD) return Promise.resolve(this.#sentAhead(parameters[0] as CompiledQuery[]));
      if (ENDS_TRANSACTION.has(config)) {
        const cancelling = this.#unwatch();
        if (cancelling) return cancelling.then(() => this.query(config, parameters));
      }
      if (this.#ahead.length > 0 || this.#committing) {
        // A transaction whose COMMIT is on its way ends with it: its statements were reads.
        const key = statementKey(this.#committing && config === 'ROLLBACK' ? 'COMMIT' : config, parameters);
        const index = this.#ahead.findIndex((sent) => sent.key === key);
        if (index >= 0) {
          const [sent] = this.#ahead.splice(index, 1);
          // The transaction's last answer: whatever was sent ahead and not read is thrown away.
          if (ENDS_TRANSACTION.has(config)) this.#forgetAhead();
          return sent!.answer;
        }
        if (this.#committing) return Promise.reject(new StatementAfterCommitError(config));
        if (ENDS_TRANSACTION.has(config)) this.#forgetAhead();
      }
      return this.#send(config, parameters);
    }

    #sentAhead(statements: readonly CompiledQuery[]): pg.QueryResult {
      const unread = new Set(this.#ahead.map((sent) => sent.key));
      const sent = this.#committing && statements.every(({ sql, parameters }) => unread.has(statementKey(sql, parameters)));
      return { ...NOTHING_SENT, rowCount: 1, rows: [{ sent }] };
    }

    #watch(caller: CallerPresence): void {
      this.#caller = caller;
      caller.watch(this.#callerLeft);
    }

    /** Stops watching the caller; answers the cancel request already sent for it, if any, which the transaction's end must wait for. */
    #unwatch(): Promise<void> | null {
      this.#caller?.unwatch(this.#callerLeft);
      this.#caller = null;
      const cancelling = this.#cancelling;
      this.#cancelling = null;
      return cancelling;
    }

    #forgetAhead(): void {
      this.#ahead = [];
      this.#committing = false;
    }

    /**
     * The opening, the statements and (for a complete read) COMMIT in one write: the stream is
     * corked while pg writes each one. Answers the opening; the others wait for their readers.
     * Without an opening (a read's last statements), a statement already sent ahead is not sent
     * again; when a COMMIT is on its way and some are not, they go in a new transaction opened
     * by `reopening`, the old one ending with its COMMIT and its unread answers thrown away.
     */
    #readAhead({ opening, statements, complete, reopening, caller }: OpeningAhead): Promise<pg.QueryResult> {
      const sentAhead = new Set(this.#ahead.map((sent) => sent.key));
      const missing = opening === null ? statements.filter(({ sql, parameters }) => !sentAhead.has(statementKey(sql, parameters))) : statements;
      if (opening === null && this.#committing) {
        if (missing.length === 0) return Promise.resolve(NOTHING_SENT);
        if (reopening === undefined) return Promise.reject(new StatementAfterCommitError(missing[0]!.sql));
        return this.#readAhead({ opening: reopening, statements, complete });
      }
      // An opening after a COMMIT on its way begins the next transaction: the last one's answers are not for it.
      if (opening !== null && this.#committing) this.#forgetAhead();
      if (caller !== undefined) this.#watch(caller);
      const { stream } = this.connection;
      stream.cork();
      try {
        const opened = opening === null ? Promise.resolve(NOTHING_SENT) : this.#open(opening);
        const reads = missing.map(({ sql, parameters }) => ({ text: sql, values: [...parameters] }));
        const ahead = [...reads, ...(complete ? [{ text: 'COMMIT', values: [] }] : [])];
        // COMMIT keeps a Sync of its own: after a failed read PostgreSQL skips to the next Sync, and a
        // COMMIT in the reads' batch would be skipped with them, leaving the transaction open.
        const answers = [...this.#sendBatch(reads), ...(complete ? [this.#send('COMMIT', [])] : [])];
        ahead.forEach(({ text, values }, index) => {
          const answer = answers[index]!;
          // Read or not, an answer's failure is its reader's: unread, it is dropped, never unhandled.
          answer.catch(() => {});
          this.#ahead.push({ key: statementKey(text, values), answer });
        });
        this.#committing = complete;
        return opened;
      } finally {
        stream.uncork();
      }
    }

    /** A simple-protocol opening as one query; a prepared one as BEGIN, then its statement as a batch of one, answering the statement. */
    #open(opening: Opening): Promise<pg.QueryResult> {
      if (typeof opening === 'string') return this.#send(opening, []);
      const begun = this.#send(opening.begin, []);
      const [opened] = this.#sendBatch([{ text: opening.statement.sql, values: [...opening.statement.parameters], name: opening.name }]);
      // A failed BEGIN fails the opening with its own error; the statement's is then not the one to tell.
      opened!.catch(() => {});
      return begun.then(() => opened!);
    }

    /** A bare text (a transaction's opening, COMMIT) goes as one simple-protocol query; a statement with parameters, as a batch of one. */
    #send(text: string, parameters: unknown[]): Promise<pg.QueryResult> {
      if (parameters.length > 0) return this.#sendBatch([{ text, values: parameters }])[0]!;
      const done = observer?.sent(this, text);
      // Answered straight from pg's callback, as a batch's statements are from their messages: the
      // observer hears the answers in the order they came.
      const send = super.query as (text: string, callback: (error: Error | null, result: QueryResults) => void) => void;
      const answer = new Promise<pg.QueryResult>((resolve, reject) =>
        send.call(this, text, (error, result) => (error ? reject(error) : resolve(Array.isArray(result) ? result[result.length - 1]! : result))),
      );
      return this.#watched(answer, done);
    }

    /** Statements with one Sync (`statement-batch.ts`), each answered on its own. */
    #sendBatch(statements: readonly { text: string; values: unknown[]; name?: string }[]): Promise<pg.QueryResult>[] {
      if (statements.length === 0) return [];
      const done = statements.map(({ text }) => observer?.sent(this, text));
      // A text without parameters gets no name: it may carry its values as literals, each variant taking a name for good.
      const named = statements.map(({ text, values, name }) => ({ text, values, name: prepare && values.length > 0 ? (name ?? statementName(text)) : undefined }));
      const batch = new StatementBatch(named, this.#prepared, this);
      super.query(batch);
      return batch.answers.map((answer, index) => this.#watched(answer, done[index]));
    }

    /** Counts the statement as running until it is answered, and tells the observer of its answer. */
    #watched(answer: Promise<pg.QueryResult>, done: StatementDone | undefined): Promise<pg.QueryResult> {
      this.#running += 1;
      const answeredOrFailed = () => void (this.#running -= 1);
      answer.then(answeredOrFailed, answeredOrFailed);
      // A caller gone before the statement was sent: it is cancelled as soon as it runs.
      if (this.#caller?.left) this.#callerLeft();
      if (!done) return answer;
      return answer.then(
        (result) => {
          done(result.rowCount, false);
          return result;
        },
        (error: unknown) => {
          done(null, true);
          throw error;
        },
      );
    }
  };
}
