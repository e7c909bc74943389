import type { Logger } from 'pino';
import type { Executor } from './db/repositories/executor.js';
import type { ReplicaSet } from './db/replicas/replica-set.js';
import type { TokenService } from './auth/token-service.js';
import type { ResolvedConfig } from './config/server-config.js';
import type { MailWorker } from './mail/mail-worker.js';
import type { Observability } from './observability/observability.js';
import type { PageCursors } from './listing/page-cursor.js';
import type { RecordJsonCatalog } from './listing/record-json.js';
import type { BackgroundTasks } from './tasks/background-tasks.js';
import type { Throttle } from './throttle/throttle.js';
import type { DecisionLog } from './decisions/decision-log.js';
import type { FairShares } from './tenancy/fair-shares.js';
import type { KnownMembers } from './tenancy/known-members.js';

/** The long-lived collaborators every middleware factory receives. */
export interface Services {
  config: ResolvedConfig;
  db: Executor;
  /** The read replicas members' reads go to; null: every read on `db`, the primary. */
  replicas: ReplicaSet | null;
  tokens: TokenService;
  /** Delivers mail_queue through the configured mailer; nudge it once queued mail is committed. */
  mail: MailWorker;
  throttle: Throttle;
  /** Keeps each organization and user within its share of the database pool. */
  fairShares: FairShares;
  /** Who counts against an organization's share: the users its last openings found members. */
  knownMembers: KnownMembers;
  /** Signs and reads index cursors; keyed from the token key, which every instance shares. */
  cursors: PageCursors;
  /** Which models' records PostgreSQL writes as JSON, read from the catalog at start. */
  recordJson: RecordJsonCatalog;
  /** Work done after the answer, which it must not wait for. */
  background: BackgroundTasks;
  logger: Logger;
  /** Where refused requests are recorded. */
  decisions: DecisionLog;
  /** Metrics, traces and stage logs, each off unless configured. */
  observability: Observability;
  /** Where links in mails point: `appUrl`, else the URL the server listens on. */
  publicUrl(): string;
}
