import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Option } from 'commander';
import { ConfigError } from '../../errors/config-error.js';
import type { FixtureDatabase } from '../../policy-tests/fixture-database.js';
import type { PolicyTestApp } from '../../policy-tests/test-caller.js';
import { commandGroup, type CliCommand } from '../cli-command.js';
import { configOption } from '../common-options.js';
import { ReportedFailureError } from '../reported-failure.js';

interface TestOptions {
  config?: string;
  reporter: 'text' | 'junit';
  output?: string;
}

/** A run with a failed expectation, its summary already printed: the CLI exits 1. */
export class PolicyTestsFailedError extends ReportedFailureError {
  constructor(summary: string) {
    super(summary);
    this.name = 'PolicyTestsFailedError';
  }
}

/** The database list tests compute their SQL lists on: DATABASE_URL, else the embedded cluster, as other commands reach it. */
async function fixtureDatabase(): Promise<FixtureDatabase> {
  const [{ openDatabaseTarget }, { openFixtureDatabase }] = await Promise.all([import('../database-target.js'), import('../../policy-tests/fixture-database.js')]);
  const target = await openDatabaseTarget();
  const database = openFixtureDatabase(target.ownerUrl);
  return {
    withFixtures: (...args) => database.withFixtures(...args),
    async close() {
      await database.close();
      await target.stop();
    },
  };
}

async function testPolicies(paths: string[], options: TestOptions): Promise<void> {
  const [
    { resolveOrganizationRoles },
    { registerModels },
    { junitReport },
    { failureLine, runPolicyTests, summaryLine },
    { defineRouteGroups },
    { appRouteGroups },
    { appConfig },
    { resolveServiceResources },
    { modelSlugs },
  ] = await Promise.all([
      import('../../config/server-config.js'),
      import('../../models/register-models.js'),
      import('../../policy-tests/junit-report.js'),
      import('../../policy-tests/run-policy-tests.js'),
      import('../../models/route-group.js'),
      import('../env-config.js'),
      import('../load-config.js'),
      import('../../permissions/service-resources.js'),
      import('../../models/model-registry.js'),
    ]);
  const config = await appConfig(options.config);
  if (!config.data) throw new ConfigError('The config registers no models (data), so there is no policy to test.');
  const routeGroups = defineRouteGroups(appRouteGroups(config));
  const registry = registerModels(config.data, routeGroups);
  const app: PolicyTestApp = {
    registry,
    routeGroups,
    organizationRoles: resolveOrganizationRoles(config).organizationRoles,
    services: resolveServiceResources(config.services, modelSlugs(registry)),
  };
  const where = paths.length > 0 ? paths : config.policyTests === undefined ? [] : [config.policyTests];
  if (where.length === 0) throw new ConfigError('Name the policy test files or folders, or set policyTests in the config.');

  const run = await runPolicyTests(app, where, fixtureDatabase);
  const summary = summaryLine(run);
  const junit = options.reporter === 'junit' ? junitReport(run) : null;
  // The summary ends standard output, unless that is the XML: then it goes to standard error.
  if (junit !== null && options.output === undefined) {
    process.stdout.write(junit);
    console.error(summary);
  } else {
    if (junit !== null) {
      await mkdir(dirname(options.output!), { recursive: true });
      await writeFile(options.output!, junit);
    }
    for (const error of run.fileErrors) console.log(`FAIL ${error.message}`);
    for (const result of run.results) if (!result.passed) console.log(failureLine(result));
    console.log(summary);
  }
  if (run.failed > 0) throw new PolicyTestsFailedError(summary);
}

export const policyCommand: CliCommand = (program) => {
  commandGroup(program, 'policy', "Check the application's policies")
    .command('test')
    .description(
      "Run policy tests (*.policy.yaml) against the application's models and policies, in-process; list tests also in SQL on the database (DATABASE_URL, else the embedded cluster)",
    )
    .argument('[paths...]', "files or folders of *.policy.yaml (default: the config's policyTests folder)")
    .addOption(configOption())
    .addOption(new Option('--reporter <format>', 'text, or junit for JUnit XML').choices(['text', 'junit']).default('text'))
    .option('--output <file>', 'write the JUnit XML to this file (default: standard output)')
    .action((paths: string[], options: TestOptions, command) => {
      if (options.output !== undefined && options.reporter !== 'junit') command.error('error: --output goes with --reporter junit');
      return testPolicies(paths, options);
    });
};
