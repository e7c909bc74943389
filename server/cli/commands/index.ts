import type { CliCommand } from '../cli-command.js';
import { analystCommand } from './analyst.js';
import { appLoginCommand } from './app-login.js';
import { dbCommand } from './db.js';
import { dbVerifyCommand } from './db-verify.js';
import { decisionsCommand } from './decisions.js';
import { explainCommand } from './explain.js';
import { keygenCommand } from './keygen.js';
import { mailCommand } from './mail.js';
import { memberCommand } from './member.js';
import { migrateCommand } from './migrate.js';
import { orgCommand } from './org.js';
import { policyCommand } from './policy.js';
import { resourcesCommand } from './resources.js';
import { roleCommand } from './role.js';
import { seedCommand } from './seed.js';
import { serveCommand } from './serve.js';
import { startCommand } from './start.js';
import { userCommand } from './user.js';

/** Every command of `gatehouse`, in the order its help lists them. */
export const COMMANDS: readonly CliCommand[] = [
  startCommand,
  serveCommand,
  migrateCommand,
  seedCommand,
  userCommand,
  orgCommand,
  memberCommand,
  roleCommand,
  resourcesCommand,
  explainCommand,
  decisionsCommand,
  keygenCommand,
  dbCommand,
  dbVerifyCommand,
  policyCommand,
  mailCommand,
  analystCommand,
  appLoginCommand,
];
