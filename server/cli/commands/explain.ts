import { InvalidArgumentError } from 'commander';
import { STANDARD_ACTIONS } from '@gatehouse/engine/wire';
import type { CliCommand } from '../cli-command.js';
import { groupOption, configOption } from '../common-options.js';

interface ExplainOptions {
  org: string;
  user: string;
  id?: string;
  fields?: string;
  include?: string;
  json?: boolean;
  group?: string;
  config?: string;
}

interface Target {
  model: string;
  action: string;
}

/**
 * `<model>.<action>`, such as `posts.destroy`, or a resource of another service with one of its
 * actions, `invoices.approve`; anything else is a usage error.
 */
function target(value: string): Target {
  const dot = value.lastIndexOf('.');
  if (dot <= 0 || dot === value.length - 1) {
    throw new InvalidArgumentError(`expected <model>.<action> with one of the actions ${STANDARD_ACTIONS.join(', ')}, or <resource>.<action> of another service.`);
  }
  return { model: value.slice(0, dot), action: value.slice(dot + 1) };
}

async function explain(request: Target, options: ExplainOptions): Promise<void> {
  const [
    { explainDecision },
    { explainSchema },
    { memberOf },
    { validate },
    { registerModels },
    { tenantBases },
    { adminApp, membershipGroup },
    { enterOrganization, requireUser },
    { decisionTree },
    { runAdmin },
    { SERVED_CHECKS },
    { resolveServiceResources, serviceResources },
    { modelSlugs },
  ] = await Promise.all([
    import('../../explain/explain-decision.js'),
    import('../../explain/explain-schema.js'),
    import('../../explain/explained-member.js'),
    import('../../http/validate.js'),
    import('../../models/register-models.js'),
    import('../../models/route-group.js'),
    import('../admin-app.js'),
    import('../admin-lookups.js'),
    import('../decision-tree.js'),
    import('../run-admin.js'),
    import('../../routes/serving-routes.js'),
    import('../../permissions/service-resources.js'),
    import('../../models/model-registry.js'),
  ]);
  const admin = await adminApp(options.config);
  const { config: app, routeGroups } = admin;
  const group = routeGroups.find((candidate) => candidate.name === membershipGroup(admin, options.group))!;
  const input = validate(explainSchema, { ...request, id: options.id, fields: options.fields, include: options.include });
  const decision = await runAdmin(async (transaction) => {
    const user = await requireUser(transaction.owner, options.user);
    const { organization, trx } = await enterOrganization(transaction, options.org);
    const member = await memberOf(trx, { organizationId: organization.id, routeGroup: group.name }, user.id);
    if (!member) throw new Error(`${user.email} is not a member of ${organization.slug} (route group ${group.name}).`);
    const registry = app.data ? registerModels(app.data, routeGroups) : undefined;
    return explainDecision(
      {
        trx,
        registry,
        group,
        organization: { id: organization.id, slug: organization.slug },
        membershipEnforcement: app.membershipEnforcement ?? false,
        base: `${app.basePath ?? '/api'}${tenantBases(group)[0]!.replace(':organization', organization.slug)}`,
        callerId: null,
        disclosure: 'operator',
        served: SERVED_CHECKS,
        resources: await serviceResources(trx, resolveServiceResources(app.services, registry ? modelSlugs(registry) : [])),
      },
      member,
      input,
    );
  });
  console.log(options.json ? JSON.stringify(decision, null, 2) : decisionTree(decision));
}

export const explainCommand: CliCommand = (program) => {
  program
    .command('explain')
    .description("Explain how a member's data request would be decided, gate by gate (as POST {t}/explain does)")
    .usage('--org <slug> --user <email> <model>.<action> [--id N] [--fields a,b] [--include a.b] [--json]')
    .argument('<model.action>', "the request, e.g. posts.destroy, or another service's resource, e.g. invoices.approve", target)
    .requiredOption('--org <slug>', 'the organization')
    .requiredOption('--user <email>', 'the member whose request it is')
    .option('--id <id>', 'the record of a show, update, destroy, restore or forceDelete; with index or trashed, why it is or is not in the list')
    .option('--fields <list>', 'the fields a store or update sets, comma-separated')
    .option('--include <list>', 'the includes of an index or show, comma-separated, dotted for nested')
    .option('--json', 'print the decision as JSON instead of a tree')
    .addOption(groupOption("the membership's"))
    .addOption(configOption())
    .action(explain);
};
