// PostGraphile v5 for `npm run bench -- node-cpu`, run by the Node 22 of this folder's
// node_modules (PostGraphile v5 needs it; Gatehouse supports Node 20), with its own package.json
// installed on demand (bench/support/postgraphile.ts). It serves the bench database's public
// schema with the Amber preset at `POST /api/{org}/graphql`, under the same row-level security
// as Gatehouse and the floor: before PostGraphile sees a request, the token is verified and the
// opening (gatehouse_open_request: session, organization, membership, role permissions) runs as
// gatehouse_app, with the floor's statuses; its user and organization then become the
// transaction's pgSettings (gatehouse.user_id, gatehouse.organization_id), which PostGraphile
// sets with set_config in the transaction of its query, where the policies read them. Not
// type-checked with the workspace (tsconfig.json): its packages live here only once installed.
import { createServer, type IncomingMessage } from 'node:http';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import { TYPES } from 'postgraphile/@dataplan/pg';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { claimsVerifier, openingStatement, refusalFor, SLUG, type OpeningRow } from '../http/request-opening.js';
import { serveHttpToBenchmarkParent } from '../support/server-process.js';

const GRAPHQL_PATH = '/graphql';
/** What both documents read: a caller must be allowed both, never less than either needs. */
const READS = ['show', 'index'].map(refusalFor);

const env = process.env;
const url = new URL(env.BENCH_OWNER_URL!);
url.searchParams.set('options', '-c role=gatehouse_app');
const pool = new pg.Pool({ connectionString: url.toString(), max: Number(env.BENCH_POOL) });
const claimsOf = await claimsVerifier(env.BENCH_SECRET_KEY!);
const settings = new WeakMap<IncomingMessage, Record<string, string>>();

/** sessions.write_lsn is a pg_lsn, a type PostGraphile has no codec for: read as text, instead of a warning at every start. */
const LsnAsText: GraphileConfig.Plugin = {
  name: 'BenchLsnAsTextPlugin',
  version: '0.0.0',
  gather: {
    hooks: {
      async pgCodecs_findPgCodec(_info, event) {
        if (!event.pgCodec && event.pgType.typname === 'pg_lsn') event.pgCodec = TYPES.text;
      },
    },
  },
};

const pgl = postgraphile({
  extends: [PostGraphileAmberPreset],
  plugins: [LsnAsText],
  // Conditions on any column, not just indexed ones: the floor's reads filter on deleted_at too.
  disablePlugins: ['PgIndexBehaviorsPlugin'],
  pgServices: [makePgService({ pool, schemas: ['public'], pgSettings: (ctx) => settings.get((ctx as { node: { req: IncomingMessage } }).node.req) ?? {} })],
  grafserv: { graphqlPath: GRAPHQL_PATH, graphiql: false, watch: false },
  grafast: { explain: false },
});
const handler = pgl.createServ(grafserv).createHandler();

/** The status refusing the request, or null once its settings are stored for PostGraphile. */
async function opened(req: IncomingMessage, slug: string): Promise<number | null> {
  const claims = await claimsOf(req.headers.authorization ?? '');
  if (!claims) return 401;
  if (!SLUG.test(slug)) return 404;
  const { rows } = await pool.query<OpeningRow>(openingStatement(claims, slug));
  const row = rows[0]!;
  const refused = READS.map((refusal) => refusal(row)).find((status) => status !== null) ?? null;
  if (refused === null) settings.set(req, { 'gatehouse.user_id': String(claims.userId), 'gatehouse.organization_id': String(row.organization_id) });
  return refused;
}

const http = createServer((req, res) => {
  const slug = /^\/api\/([^/]+)\/graphql$/.exec(req.url ?? '')?.[1];
  if (slug === undefined || req.method !== 'POST') {
    res.writeHead(404).end();
    return;
  }
  opened(req, slug).then(
    (refused) => {
      if (refused !== null) {
        res.writeHead(refused, { 'content-type': 'application/json' }).end('{"message":"refused"}');
        return;
      }
      req.url = GRAPHQL_PATH;
      handler(req, res);
    },
    (error: unknown) => {
      console.error(error);
      res.writeHead(500).end();
    },
  );
});
await serveHttpToBenchmarkParent(http, async () => {
  await pgl.release();
  await pool.end();
});
