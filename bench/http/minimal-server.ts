// The baseline of `npm run bench -- http`: the least a correct endpoint must do for
// `GET /api/{org}/posts/{id}` and `GET /api/{org}/posts?per_page=N`, with Koa and pg only.
// Like Gatehouse it verifies the PASETO token (remembering verified signatures), opens the
// tenant transaction with the session, organization and membership checks in one round trip
// (the same SQL function), reads the role permissions, runs the data statements as named
// prepared statements as gatehouse_app under row-level security, and commits.
import Koa from 'koa';
import pg from 'pg';
import { importTokenKeys, verifyToken } from '../../server/auth/token-keys.js';
import { serveBenchmarkParent } from '../support/server-process.js';

const env = process.env;
const { publicKey } = (await importTokenKeys(env.BENCH_SECRET_KEY!)).current;
const url = new URL(env.BENCH_OWNER_URL!);
url.searchParams.set('options', '-c role=gatehouse_app');
const pool = new pg.Pool({ connectionString: url.toString(), max: Number(env.BENCH_POOL) });

interface Claims {
  userId: number;
  sessionId: string;
  routeGroup: string | null;
}

const verified = new Map<string, Claims>();
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const UUID = /^[0-9a-f-]{36}$/;

async function claimsOf(header: string): Promise<Claims | null> {
  const token = /^Bearer (\S+)$/.exec(header)?.[1];
  if (!token) return null;
  const known = verified.get(token);
  if (known) return known;
  try {
    const payload = await verifyToken(publicKey, token);
    const claims = { userId: Number(payload.sub), sessionId: String(payload.sid), routeGroup: typeof payload.grp === 'string' ? payload.grp : null };
    if (!Number.isSafeInteger(claims.userId) || !UUID.test(claims.sessionId) || (claims.routeGroup !== null && !SLUG.test(claims.routeGroup))) return null;
    verified.set(token, claims);
    return claims;
  } catch {
    return null;
  }
}

class Refusal extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

const allows = (permissions: string[], action: string) => permissions.includes('*') || permissions.includes('posts.*') || permissions.includes(`posts.${action}`);

async function inRequest<T>(ctx: Koa.Context, action: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const claims = await claimsOf(ctx.get('authorization'));
  if (!claims) throw new Refusal(401);
  const slug = ctx.path.split('/')[2] ?? '';
  if (!SLUG.test(slug)) throw new Refusal(404);
  const client = await pool.connect();
  try {
    const grp = claims.routeGroup === null ? 'NULL' : `'${claims.routeGroup}'`;
    const opened = (await client.query(
      `BEGIN; SELECT * FROM gatehouse_open_request('${claims.sessionId}', ${claims.userId}, ${grp}, true, 'tenant', '${slug}')`,
    )) as unknown as pg.QueryResult[];
    const row = opened[1]!.rows[0] as { session_valid: boolean; role_id: number | null; role_permissions: string[]; granted_permissions: string[]; denied_permissions: string[] };
    const refusal = !row.session_valid ? 401 : row.role_id === null ? 404 : null;
    const permissions = [...row.role_permissions, ...row.granted_permissions].filter((permission) => !row.denied_permissions.includes(permission));
    const result = refusal ?? (allows(permissions, action) ? await work(client) : 403);
    await client.query(refusal === null ? 'COMMIT' : 'ROLLBACK');
    if (typeof result === 'number') throw new Refusal(result);
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

const app = new Koa();
app.use(async (ctx) => {
  try {
    const show = /^\/api\/[^/]+\/posts\/(\d+)$/.exec(ctx.path);
    if (show) {
      const row = await inRequest(ctx, 'show', async (client) => {
        const { rows } = await client.query({ name: 'show', text: 'select * from "posts" where "deleted_at" is null and "id" = $1', values: [Number(show[1])] });
        return rows[0] ?? 404;
      });
      ctx.body = row;
      return;
    }
    if (/^\/api\/[^/]+\/posts$/.test(ctx.path)) {
      const perPage = Number(ctx.query.per_page ?? 15);
      const page = await inRequest(ctx, 'index', async (client) => {
        const rows = await client.query({ name: 'index', text: 'select * from "posts" where "deleted_at" is null order by "id" asc limit $1 offset $2', values: [perPage, 0] });
        const total = await client.query({ name: 'count', text: 'select count(*) as "total" from "posts" where "deleted_at" is null', values: [] });
        return { rows: rows.rows, total: Number(total.rows[0].total) };
      });
      ctx.set({ 'X-Current-Page': '1', 'X-Last-Page': String(Math.max(1, Math.ceil(page.total / perPage))), 'X-Per-Page': String(perPage), 'X-Total': String(page.total) });
      ctx.body = { data: page.rows };
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

const http = app.listen(0, '127.0.0.1');
await new Promise((resolve) => http.once('listening', resolve));
const { port } = http.address() as { port: number };
serveBenchmarkParent(`http://127.0.0.1:${port}`, async () => {
  await new Promise((resolve) => http.close(resolve));
  http.closeAllConnections();
  await pool.end();
});
