import type { Command } from 'commander';
import type { CliCommand } from '../cli-command.js';
import { configOption } from '../common-options.js';

/** Migrates, then runs the application's seed (`--demo`: the demo's). */
async function seed(options: { demo?: boolean; config?: string }, command: Command): Promise<void> {
  if (options.demo && options.config !== undefined) command.error('error: --demo and --config exclude each other');
  const [{ loadAppConfig, demoConfig }, { withDatabaseTarget }, { migrate }] = await Promise.all([
    import('../load-config.js'),
    import('../database-target.js'),
    import('../../db/migrations/migrations.js'),
  ]);
  const { config: app, isDemo } = options.demo ? { config: await demoConfig(), isDemo: true } : await loadAppConfig(options.config);
  const run = app.seed;
  if (!run) return command.error('error: the application config has no seed (pass --config <file>, or --demo)');
  const [seeded, present] = isDemo ? ['Seeded the demo data.', 'Demo data already present.'] : ['Seeded.', 'Seed data already present.'];
  return withDatabaseTarget(async (target) => {
    await migrate(target.ownerUrl, { dir: app.migrations });
    console.log((await run(target.ownerUrl)) ? seeded : present);
  });
}

export const seedCommand: CliCommand = (program) => {
  program
    .command('seed')
    .description("Apply the core's and the application's migrations, then run its seed (once: the seed says whether it ran)")
    .addOption(configOption())
    .option('--demo', 'the demo data instead')
    .action(seed);
};
