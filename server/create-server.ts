import { once } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import type Koa from 'koa';
import { createApp } from './app.js';
import { importPreviousKey, importTokenKeys } from './auth/token-keys.js';
import { TokenService } from './auth/token-service.js';
import { resolveConfig, type ServerConfig } from './config/server-config.js';
import { openDatabase, type Database } from './db/connection/database.js';
import { checkServiceLogin } from './db/connection/service-login-check.js';
import { closeStalledAnswers } from './http/stalled-answers.js';
import { limitConnectionsPerClient } from './http/client-connections.js';
import { answerClientError, answerUnmetExpectation } from './http/client-error.js';
import { gracefulClose } from './http/graceful-close.js';
import { listeningUrl } from './http/listening-url.js';
import { createLogger, flushLogger } from './http/logger.js';
import type { GatehouseState } from './http/state.js';
import { passwordResetPreparer } from './auth/password-recover.js';
import { MailWorker } from './mail/mail-worker.js';
import { OutboxMailer } from './mail/outbox-mailer.js';
import { GatehouseMetrics } from './observability/metrics.js';
import { FairShares } from './tenancy/fair-shares.js';
import { KnownMembers } from './tenancy/known-members.js';
import { closeMetrics, METRICS_PATH, serveMetrics } from './observability/metrics-server.js';
import type { Observability } from './observability/observability.js';
import { observers } from './observability/observers.js';
import { statementSpans } from './observability/statement-spans.js';
import { gatehouseTracer } from './observability/tracing.js';
import { transactionTimer } from './observability/transaction-timer.js';
import { PageCursors } from './listing/page-cursor.js';
import { RecordJsonCatalog } from './listing/record-json.js';
import { ConfigError } from './errors/config-error.js';
import { checkModelTables } from './db/migrations/check-model-tables.js';
import { checkOrganizationRoles } from './organizations/check-organization-roles.js';
import { readinessCheck } from './service/readiness.js';
import { BackgroundTasks } from './tasks/background-tasks.js';
import { DecisionLog } from './decisions/decision-log.js';
import { DecisionStore } from './decisions/decision-store.js';
import { Throttle } from './throttle/throttle.js';
import { ReplicaSet } from './db/replicas/replica-set.js';
import { replicaName } from './db/replicas/replica-config.js';

export interface ListenOptions {
  /** Default 3000; 0 picks a free port. */
  port?: number;
  host?: string;
}

export interface CloseOptions {
  /** How long running requests may take to finish before their connections are cut; default 10 s. */
  graceMs?: number;
}

export interface GatehouseServer {
  readonly app: Koa<GatehouseState>;
  /** Starts listening (and serving metrics, when they have a port); resolves to the base URL of the server. */
  listen(options?: ListenOptions): Promise<string>;
  /** Where Prometheus scrapes, once listening with `metrics` configured. */
  readonly metricsUrl: string | undefined;
  /** Resolves when the database answers and is migrated; otherwise throws the 503 `/ready` answers. */
  ready(): Promise<void>;
  /**
   * Stops accepting connections, lets running requests, their background work and a running
   * mail delivery finish within the grace period (then cuts them), closes the database pool and
   * flushes the log. Calling it again returns the
   * same promise.
   */
  close(options?: CloseOptions): Promise<void>;
  /** The decision log's database store (what it wrote, dropped and still queues), null when it keeps none. */
  readonly decisionStore: Pick<DecisionStore, 'stats' | 'drain'> | null;
}

const DEFAULT_GRACE_MS = 10_000;

/**
 * A Koa app with its database pool, token keys, mailer and throttle, built from config.
 * The login it connects as is checked first: an owner, superuser or BYPASSRLS login is refused
 * unless `allowOwnerConnection`. Then the database: a role new organizations start with that does not exist, a
 * registered model's missing table, or a tenant table without its row-level security, is a
 * ConfigError before any request is served.
 */
export async function createServer(config: ServerConfig): Promise<GatehouseServer> {
  const resolved = resolveConfig(config);
  const logger = config.logger ?? createLogger();
  const tokens = new TokenService(
    await importTokenKeys(resolved.tokens.secretKey),
    resolved.tokens.ttlSeconds,
    await Promise.all(resolved.tokens.previousPublicKeys.map(importPreviousKey)),
    config.tokens.clock,
  );
  const tracer = config.tracing ? gatehouseTracer() : null;
  const stageLogs = logger.isLevelEnabled('debug');
  // The metrics read the pool they describe, which is opened with their observer: hence the late binding.
  const metrics: GatehouseMetrics | null = config.metrics ? new GatehouseMetrics(() => database.connections()) : null;
  const observability: Observability = { metrics, tracer, stageLogs };
  const statementObserver = observers(metrics && transactionTimer(metrics), tracer || stageLogs ? statementSpans(tracer) : null);
  const databaseOptions = await checkServiceLogin(resolved.database, resolved.allowOwnerConnection, logger);
  // A replica's login is held to the same rule: reads there must not be able to leave row-level security either.
  const replicaOptions = await Promise.all(
    (resolved.replicas?.urls ?? []).map((url) => checkServiceLogin({ ...resolved.database, connectionString: url }, resolved.allowOwnerConnection, logger, `the replica ${replicaName(url)}`)),
  );
  const database: Database = openDatabase(databaseOptions, statementObserver);
  const recordJson = new RecordJsonCatalog();
  const checks = async () => {
    // A database that is down or not migrated yet is /api/ready's to report, not a reason to
    // refuse to start; only roles the database says are missing are.
    await checkOrganizationRoles(database.db, resolved).catch((error: unknown) => {
      if (error instanceof ConfigError) throw error;
    });
    if (resolved.models) {
      await checkModelTables(database.db, resolved.models);
      if (resolved.recordJson === 'postgres') await recordJson.load(database.db, resolved.models);
    }
  };
  await checks().catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const replicas =
    resolved.replicas &&
    new ReplicaSet(
      database.db,
      replicaOptions.map((options) => ({ url: options.connectionString, database: openDatabase(options, statementObserver), probe: openDatabase({ ...options, maxConnections: 1 }) })),
      resolved.replicas.maxLagMs,
    );
  await replicas?.start().catch(async (error: unknown) => {
    await replicas.close();
    await database.close();
    throw error;
  });
  if (replicas) metrics?.watchReplicas(() => replicas.stats());
  const background = new BackgroundTasks(logger);
  const store = resolved.decisionLog.store === 'database' ? new DecisionStore(database.db, resolved.decisionLog, logger) : null;
  const decisions = new DecisionLog(logger, store);
  store?.start();
  if (store) metrics?.watchDecisionLog(() => store.stats());
  const fairShares = new FairShares(resolved.fairShare);
  metrics?.watchFairShares(() => fairShares.stats());
  let servedUrl: string | undefined;
  // Mail links: the configured URL, else the one this server listens on (never a request's
  // Host header, which a caller chooses).
  const publicUrl = () => resolved.appUrl ?? servedUrl ?? 'http://localhost:3000';
  const mail = new MailWorker(database.db, {
    mailer: config.mailer ?? new OutboxMailer(database.db, logger),
    logger,
    passwordReset: passwordResetPreparer(resolved.passwordResetTtlSeconds, publicUrl),
  });
  mail.start();
  const app = createApp({
    config: resolved,
    db: database.db,
    replicas,
    tokens,
    mail,
    throttle: new Throttle(resolved.throttle),
    fairShares,
    knownMembers: new KnownMembers(),
    cursors: new PageCursors(resolved.tokens.secretKey),
    recordJson,
    background,
    logger,
    decisions,
    observability,
    publicUrl,
  });
  let closeHttp: ReturnType<typeof gracefulClose> | undefined;
  let metricsServer: Server | undefined;
  let metricsUrl: string | undefined;
  let closing: Promise<void> | undefined;

  return {
    app,
    get metricsUrl() {
      return metricsUrl;
    },
    async listen({ port = 3000, host } = {}) {
      if (metrics && config.metrics) {
        const metricsHost = config.metrics.host ?? host;
        metricsServer = await serveMetrics(metrics, config.metrics.port, metricsHost);
        metricsUrl = `${listeningUrl(metricsServer, metricsHost)}${METRICS_PATH}`;
      }
      // requireHost() answers a missing Host header in JSON instead of Node's empty 400.
      // Node checks the headers and request timeouts every 30 s by default; the settings are seconds, so each second.
      const http = createHttpServer({ requireHostHeader: false, connectionsCheckingInterval: 1000 }, app.callback());
      http.keepAliveTimeout = resolved.keepAliveTimeoutSeconds * 1000;
      http.headersTimeout = resolved.headersTimeoutSeconds * 1000;
      // The whole request, headers and then body; Node's default (300 s) let a client that stops mid-body hold its socket that long.
      http.requestTimeout = (resolved.headersTimeoutSeconds + resolved.bodyTimeoutSeconds) * 1000;
      closeStalledAnswers(http, resolved, logger);
      if (resolved.connectionsPerClient !== null) limitConnectionsPerClient(http, resolved.connectionsPerClient);
      http.listen(port, host);
      http.on('clientError', answerClientError);
      http.on('checkExpectation', answerUnmetExpectation);
      closeHttp = gracefulClose(http);
      await once(http, 'listening');
      servedUrl = listeningUrl(http, host);
      return servedUrl;
    },
    ready: readinessCheck(database.db),
    decisionStore: decisions.store,
    close({ graceMs = DEFAULT_GRACE_MS } = {}) {
      closing ??= (async () => {
        try {
          const { forced } = (await closeHttp?.(graceMs)) ?? { forced: false };
          if (metricsServer) await closeMetrics(metricsServer);
          await background.drain();
          await decisions.store?.close();
          // A delivery cut here stays queued: its lease ends and an instance sends it then.
          await mail.stop(forced ? 0 : graceMs);
          await replicas?.close({ force: forced });
          await database.close({ force: forced });
        } finally {
          // Last: the requests that just finished, and their background work, have logged their lines.
          await flushLogger(logger);
        }
      })();
      return closing;
    },
  };
}
