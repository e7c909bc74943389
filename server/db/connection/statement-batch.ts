import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';
import { StatementSkippedError } from './statement-skipped-error.js';

/** A statement with parameters; a name makes it a prepared statement the connection keeps. */
export interface BatchedStatement {
  text: string;
  values: readonly unknown[];
  name: string | undefined;
}

/** The messages of pg's Connection a batch writes, as pg's own Query writes them. */
interface Wire {
  stream: { cork(): void; uncork(): void };
  close(target: { type: 'S'; name: string }): void;
  parse(statement: { text: string; name: string | undefined }): void;
  bind(bound: { statement: string | undefined; values: (string | Buffer | null)[] }): void;
  describe(target: { type: 'P' }): void;
  execute(portal: null): void;
  sync(): void;
}

/** What pg's Result makes of a RowDescription: the fields, their parsers and the empty row each row starts from. */
interface RowShape {
  fields: pg.FieldDef[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: object | null;
}

/** pg's Result as its Query and pg-cursor fill it, message by message. */
interface ResultBuilder extends pg.QueryResult, RowShape {
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): unknown;
  addRow(row: unknown): void;
  addCommandComplete(message: unknown): void;
}

/** The client's type parsers (its own, then pg's global ones). */
export interface TypeParsers {
  getTypeParser(oid: number, format?: string): unknown;
}

/**
 * A connection's prepared statements, by name: present once the connection has a Parse for it,
 * with the shape of its rows once a RowDescription has told it. A prepared statement's row type
 * cannot change without PostgreSQL failing it ("cached plan must not change result type"), and a
 * failure forgets the name, so a known shape stays true while the name is here.
 */
export type PreparedStatements = Map<string, RowShape | null>;

/**
 * The most prepared statements one connection keeps. Each holds its parse and plans in the
 * connection's PostgreSQL backend for as long as the connection lives (35 to 55 KB for an index
 * read with two subqueries, measured on PostgreSQL 18), and a member can make statements of
 * endless shapes (sorts, filters, includes): past this, the least recently used are closed. An
 * application's statements sent often are far fewer, and stay.
 */
export const PREPARED_PER_CONNECTION = 250;

/**
 * Makes room for the names `statements` parse: marks the names they use as the most recently
 * used, then forgets the least recently used others until the new ones fit, and answers them, to
 * be closed. Their Close is written before the batch's statements, so no error of theirs can
 * skip it.
 */
function makeRoom(prepared: PreparedStatements, statements: readonly BatchedStatement[]): string[] {
  const used = new Set<string>();
  let parsing = 0;
  for (const { name } of statements) {
    if (name === undefined || used.has(name)) continue;
    used.add(name);
    if (!prepared.has(name)) parsing += 1;
    else {
      // A Map keeps insertion order: set again, the name moves to the end, the most recent.
      const shape = prepared.get(name)!;
      prepared.delete(name);
      prepared.set(name, shape);
    }
  }
  const closed: string[] = [];
  for (const name of prepared.keys()) {
    if (prepared.size + parsing <= PREPARED_PER_CONNECTION || used.has(name)) break;
    prepared.delete(name);
    closed.push(name);
  }
  return closed;
}

interface Pending {
  resolve(result: pg.QueryResult): void;
  reject(error: Error): void;
}

/**
 * Statements written as Parse/Bind/Describe/Execute one after the other and closed by ONE Sync:
 * PostgreSQL answers them in order and with one ReadyForQuery, which pg's pipelined client
 * accounts for as one query. Each statement still gets its own answer (`answers`), settled at its
 * CommandComplete (the last at the ReadyForQuery, after which nothing can fail it any more).
 *
 * After an error PostgreSQL skips every message up to the Sync: the failing statement gets the
 * error, the ones after it a StatementSkippedError, and the transaction is aborted as it would be
 * with a Sync per statement.
 *
 * `prepared` holds the names the connection has a Parse for; a name is parsed on its first use
 * only, and described until its rows' shape is known: then PostgreSQL sends no RowDescription, and
 * pg neither parses one nor looks up its type parsers again on every execution. Whether the
 * failing statement's own Parse happened is not told, so its name and those parsed for the
 * statements after it are forgotten, and every Parse of a name is preceded by a Close, which
 * PostgreSQL takes for a statement that does not exist as well.
 *
 * pg's pipelined client takes only its own Query class (it refuses pg-cursor and the like, which
 * keep portals open across round trips): the batch is one, with its own submit and handlers.
 */
export class StatementBatch extends pg.Query {
  readonly answers: Promise<pg.QueryResult>[];
  readonly #statements: readonly BatchedStatement[];
  readonly #prepared: PreparedStatements;
  readonly #results: ResultBuilder[];
  readonly #pending: (Pending | null)[];
  /** The statement PostgreSQL is answering now. */
  #current = 0;
  /** A row of the current statement that its type parser refused: its failure, once it completes. */
  #rowError: Error | null = null;
  /** The names this batch parses, by statement. */
  readonly #parsing: (string | undefined)[] = [];
  /** The names whose RowDescription this batch asks for, by statement. */
  readonly #describing: (string | undefined)[] = [];

  constructor(statements: readonly BatchedStatement[], prepared: PreparedStatements, types: TypeParsers) {
    // A text, not a config object: pg copies a config object property by property (its descriptors), on every batch.
    super('-- gatehouse: statement batch');
    this.#statements = statements;
    this.#prepared = prepared;
    this.#results = statements.map(() => new pg.Result('', types as typeof pg.types) as unknown as ResultBuilder);
    const pending: Pending[] = [];
    this.answers = statements.map(() => new Promise<pg.QueryResult>((resolve, reject) => void pending.push({ resolve, reject })));
    this.#pending = pending;
  }

  // pg types Query#submit as a property; it calls it with its Connection and takes a returned Error as the query's failure.
  override submit = (connection: pg.Connection): Error | null => {
    const wire = connection as unknown as Wire;
    let values: (string | Buffer | null)[][];
    try {
      values = this.#statements.map((statement) => statement.values.map((value) => pgUtils.prepareValue(value)));
    } catch (error) {
      // A value pg cannot send fails the batch before anything of it is written.
      return error as Error;
    }
    wire.stream.cork();
    try {
      for (const name of makeRoom(this.#prepared, this.#statements)) wire.close({ type: 'S', name });
      this.#statements.forEach(({ text, name }, index) => {
        if (name === undefined || !this.#prepared.has(name)) {
          if (name !== undefined) {
            wire.close({ type: 'S', name });
            this.#prepared.set(name, null);
          }
          wire.parse({ text, name });
          this.#parsing[index] = name;
        }
        wire.bind({ statement: name, values: values[index]! });
        const shape = name === undefined ? null : this.#prepared.get(name);
        if (shape) Object.assign(this.#results[index]!, shape);
        else {
          wire.describe({ type: 'P' });
          this.#describing[index] = name;
        }
        wire.execute(null);
      });
      wire.sync();
    } finally {
      wire.stream.uncork();
    }
    return null;
  };

  handleRowDescription(message: { fields: unknown[] }): void {
    const result = this.#results[this.#current]!;
    result.addFields(message.fields);
    const name = this.#describing[this.#current];
    if (name !== undefined && this.#prepared.has(name)) {
      const { fields, _parsers, _prebuiltEmptyResultObject } = result;
      this.#prepared.set(name, { fields, _parsers, _prebuiltEmptyResultObject });
    }
  }

  handleDataRow(message: { fields: unknown[] }): void {
    if (this.#rowError) return;
    const result = this.#results[this.#current]!;
    try {
      result.addRow(result.parseRow(message.fields));
    } catch (error) {
      this.#rowError = error as Error;
    }
  }

  handleCommandComplete(message: unknown): void {
    this.#results[this.#current]!.addCommandComplete(message);
    this.#completed();
  }

  handleEmptyQuery(): void {
    this.#completed();
  }

  /** The last statement is settled at the ReadyForQuery: until the Sync, an error may still fail it. */
  #completed(): void {
    if (this.#current === this.#statements.length - 1) return;
    this.#settle(this.#current);
    this.#current += 1;
    this.#rowError = null;
  }

  #settle(index: number): void {
    const pending = this.#pending[index];
    this.#pending[index] = null;
    if (this.#rowError) pending?.reject(this.#rowError);
    else pending?.resolve(this.#results[index]!);
  }

  handleReadyForQuery(): void {
    this.#settle(this.#current);
  }

  /**
   * An ErrorResponse (pg has then stopped handing this batch anything, its ReadyForQuery
   * included), a value pg could not send, or the connection lost.
   */
  handleError(error: Error): void {
    this.#pending.forEach((pending, index) => {
      if (!pending) return;
      this.#pending[index] = null;
      // The failing statement's name is forgotten too, parsed or not: the next use parses and
      // describes it again, which heals a statement a migration changed the rows of.
      const name = index === this.#current ? this.#statements[index]!.name : this.#parsing[index];
      if (name !== undefined) this.#prepared.delete(name);
      pending.reject(index === this.#current ? error : new StatementSkippedError(error));
    });
  }
}
