import type { Logger } from 'pino';
import type { Executor } from './db/repositories/executor.js';
import type { LoginThrottle } from './auth/login-throttle.js';
import type { TokenService } from './auth/token-service.js';
import type { ResolvedConfig } from './config/server-config.js';
import type { Mailer } from './mail/mailer.js';

/** The long-lived collaborators every middleware factory receives. */
export interface Services {
  config: ResolvedConfig;
  db: Executor;
  tokens: TokenService;
  mailer: Mailer;
  throttle: LoginThrottle;
  logger: Logger;
}
