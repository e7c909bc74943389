import type { Command } from 'commander';
import { commandGroup, type CliCommand } from '../cli-command.js';
import { configOption } from '../common-options.js';

// Loaded when a subcommand runs: the definitions below, all that `--help` needs, load without it.
const implementation = async () => {
  const [resources, repository, validation, app, admin, errors] = await Promise.all([
    import('../../permissions/service-resources.js'),
    import('../../db/repositories/service-resources.js'),
    import('../../http/validate.js'),
    import('../admin-app.js'),
    import('../run-admin.js'),
    import('../../errors/not-found-error.js'),
  ]);
  return { ...resources, ...repository, ...validation, ...app, ...admin, ...errors };
};

/** The configured resources and the model slugs a registration must not clash with. */
async function configured(configFile: string | undefined) {
  const { adminApp, resolveServiceResources } = await implementation();
  const { config } = await adminApp(configFile);
  const slugs = (config.data?.models ?? []).map((model) => (model as { slug: string }).slug);
  return { slugs, resources: resolveServiceResources(config.services, slugs) };
}

async function list(options: { config?: string }): Promise<void> {
  const { runAdmin, serviceResources } = await implementation();
  const { resources } = await configured(options.config);
  const all = await runAdmin((admin) => serviceResources(admin.owner, resources));
  if (all.length === 0) console.log('No resources of other services are registered.');
  for (const entry of all) console.log(`${entry.resource}  ${entry.service}  ${entry.actions.join(', ')}  (${entry.origin})`);
}

async function register(service: string, resource: string, options: { actions: string; config?: string }): Promise<void> {
  const { runAdmin, validate, serviceResourceSchema, assertRegistrable, upsertServiceResource } = await implementation();
  const { slugs, resources } = await configured(options.config);
  assertRegistrable(resource, slugs, resources);
  const input = validate(serviceResourceSchema, { service, actions: options.actions.split(/[\s,]+/).filter((action) => action !== '') });
  const created = await runAdmin((admin) => upsertServiceResource(admin.owner, { resource, ...input }));
  console.log(`${created ? 'Registered' : 'Updated'} ${resource} of ${input.service}: ${input.actions.join(', ')}.`);
}

async function remove(resource: string, options: { config?: string }): Promise<void> {
  const { runAdmin, assertRegistrable, deleteServiceResource, NotFoundError } = await implementation();
  const { slugs, resources } = await configured(options.config);
  assertRegistrable(resource, slugs, resources);
  if (!(await runAdmin((admin) => deleteServiceResource(admin.owner, resource)))) throw new NotFoundError(`No resource ${resource} is registered.`);
  console.log(`Removed ${resource}; permissions naming it stay in the lists and grant nothing Gatehouse checks.`);
}

export const resourcesCommand: CliCommand = (program) => {
  const resources: Command = commandGroup(program, 'resources', "Register other services' resources, so their permissions are granted and checked like a model's");
  resources.command('list').description('The resources of other services, configured and registered').addOption(configOption()).action(list);
  resources
    .command('register')
    .description('Register a resource of another service with its actions, or replace its actions (every instance offers it at once)')
    .argument('<service>', 'the service it belongs to, e.g. billing')
    .argument('<resource>', 'the resource, e.g. invoices: its permissions are invoices.{action} and invoices.*')
    .requiredOption('--actions <list>', 'its actions, comma- or space-separated (e.g. index,show,approve)')
    .addOption(configOption())
    .action(register);
  resources.command('remove').description('Remove a registered resource').argument('<resource>', 'the resource').addOption(configOption()).action(remove);
};
