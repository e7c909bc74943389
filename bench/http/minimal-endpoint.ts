// What the two minimal baselines of `npm run bench -- http` share: the least a correct endpoint
// must do for `GET /api/{org}/posts/{id}` and `GET /api/{org}/posts?per_page=N`, with Koa and pg
// only. Like Gatehouse it verifies the PASETO token (remembering verified signatures), opens the
// tenant transaction with the session, organization and membership checks of the same SQL
// function, reads the role permissions, checks the permission, and runs the data statements as
// gatehouse_app under row-level security. How the transaction travels to PostgreSQL is each
// baseline's own (a RequestTransaction): bench/http/minimal-server.ts and
// bench/http/one-round-trip-server.ts.
import Koa from 'koa';
import pg from 'pg';
import { claimsVerifier, openingStatement, refusalFor, SLUG, type OpeningRow } from './request-opening.js';
import { createServer } from 'node:http';
import { serveHttpToBenchmarkParent } from '../support/server-process.js';

/** A data statement with its integer parameters ($1, $2...). */
export interface Statement {
  name: string;
  text: string;
  values: number[];
}

export type Rows = Record<string, unknown>[];

/**
 * Runs one request's transaction on client: `opening` (the statement that checks the caller and
 * sets the tenant context, BEGIN not included), then `statements`. refusal turns the opening's row
 * into a status, or null when the request may go on. Returns each statement's rows, or the refusal;
 * rows read before the refusal was known never leave it.
 */
export type RequestTransaction = (client: pg.PoolClient, opening: string, statements: Statement[], refusal: (row: OpeningRow) => number | null) => Promise<Rows[] | number>;

class Refusal extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

/** Serves the two routes with `transaction`, in this process, for the benchmark parent. */
export async function serveMinimalEndpoint(transaction: RequestTransaction): Promise<void> {
  const env = process.env;
  const claimsOf = await claimsVerifier(env.BENCH_SECRET_KEY!);
  const url = new URL(env.BENCH_OWNER_URL!);
  url.searchParams.set('options', '-c role=gatehouse_app');
  const pool = new pg.Pool({ connectionString: url.toString(), max: Number(env.BENCH_POOL) });

  async function inRequest(ctx: Koa.Context, action: string, statements: Statement[]): Promise<Rows[]> {
    const claims = await claimsOf(ctx.get('authorization'));
    if (!claims) throw new Refusal(401);
    const slug = ctx.path.split('/')[2] ?? '';
    if (!SLUG.test(slug)) throw new Refusal(404);
    const opening = openingStatement(claims, slug);
    const client = await pool.connect();
    try {
      const result = await transaction(client, opening, statements, refusalFor(action));
      if (typeof result === 'number') throw new Refusal(result);
      return result;
    } catch (error) {
      if (!(error instanceof Refusal)) await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }

  const app = new Koa();
  app.use(async (ctx) => {
    try {
      const show = /^\/api\/[^/]+\/posts\/(\d+)$/.exec(ctx.path);
      const id = Number(show?.[1]);
      if (show && Number.isSafeInteger(id)) {
        const [rows] = await inRequest(ctx, 'show', [{ name: 'show', text: 'select * from "posts" where "deleted_at" is null and "id" = $1', values: [id] }]);
        if (!rows![0]) throw new Refusal(404);
        ctx.body = rows![0];
        return;
      }
      const perPage = Number(ctx.query.per_page ?? 15);
      if (/^\/api\/[^/]+\/posts$/.test(ctx.path) && Number.isSafeInteger(perPage) && perPage > 0) {
        const [rows, count] = await inRequest(ctx, 'index', [
          { name: 'index', text: 'select * from "posts" where "deleted_at" is null order by "id" asc limit $1 offset $2', values: [perPage, 0] },
          { name: 'count', text: 'select count(*) as "total" from "posts" where "deleted_at" is null', values: [] },
        ]);
        const total = Number(count![0]!.total);
        ctx.set({ 'X-Current-Page': '1', 'X-Last-Page': String(Math.max(1, Math.ceil(total / perPage))), 'X-Per-Page': String(perPage), 'X-Total': String(total) });
        ctx.body = { data: rows };
        return;
      }
      ctx.status = 404;
      ctx.body = { message: 'Not Found' };
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      ctx.status = error.status;
      ctx.body = { message: 'refused' };
    }
  });

  await serveHttpToBenchmarkParent(createServer(app.callback()), () => pool.end());
}
