import type { Kysely } from 'kysely';
import { compileAbility, effectivePermissions } from '@gatehouse/engine';
import { createDataActionContext, type DataActionContext } from '../../../server/data/data-action-context.js';
import { DEMO_ROLES, DEMO_USERS } from '../../../policies/seed.js';
import type { Schema } from '../../../server/db/schema.js';
import { withTenant } from '../../../server/db/transactions/tenant-transaction.js';
import type { ModelRegistry } from '../../../server/models/model-registry.js';
import { loose } from '../../../server/db/transactions/tenant-transaction.js';
import { queryOnce } from '../../support/query.js';

/** A demo member acting in their organization, with the permissions the seed gives them. */
export interface DataScenario {
  db: Kysely<Schema>;
  registry: ModelRegistry;
  organization: { id: number; slug: string };
  user: { id: number };
  role: string;
  permissions: string[];
}

/** The scenario of a seeded member of a demo organization (DESIGN.md 6), ids read as the owner. */
export async function demoMember(ownerUrl: string, db: Kysely<Schema>, registry: ModelRegistry, email: string): Promise<DataScenario> {
  const member = DEMO_USERS.find((user) => user.email === email);
  if (!member?.organization) throw new Error(`${email} is no member of a demo organization`);
  const [row] = await queryOnce<{ user_id: number; organization_id: number }>(
    ownerUrl,
    'SELECT u.id AS user_id, o.id AS organization_id FROM users u, organizations o WHERE u.email = $1 AND o.slug = $2',
    [email, member.organization],
  );
  const role = DEMO_ROLES.find((candidate) => candidate.slug === member.role)!;
  return {
    db,
    registry,
    organization: { id: row!.organization_id, slug: member.organization },
    user: { id: row!.user_id },
    role: role.slug,
    permissions: effectivePermissions({ role: [...role.permissions], granted: member.granted ?? [], denied: member.denied ?? [] }),
  };
}

/** Runs fn as a request of the scenario's member would: one tenant transaction, the real policies. */
export function inTenant<T>(scenario: DataScenario, fn: (context: DataActionContext) => Promise<T>): Promise<T> {
  const { db, registry, organization, user, role, permissions } = scenario;
  return withTenant(db, { organizationId: organization.id, userId: user.id }, (trx) =>
    fn(
      createDataActionContext({
        trx: loose(trx),
        registry,
        served: registry.models.map((model) => model.slug),
        policy: { user, ability: compileAbility(permissions), role, organization, routeGroup: 'tenant' },
      }),
    ),
  );
}
