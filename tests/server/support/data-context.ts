import type { Kysely } from 'kysely';
import type { Schema } from '../../../server/db/schema.js';
import { withTenant } from '../../../server/db/with-tenant.js';
import type { DataContext, DataPolicy } from '../../../server/data/data-context.js';
import type { ModelRegistry } from '../../../server/models/model-registry.js';
import { loose } from '../../../server/query/loose-schema.js';

/**
 * A fixed-verdict policy: these tests exercise the data layer's record gate, queries and
 * bookkeeping; the permission engine's own verdicts are covered over HTTP with real policies.
 */
export function fixedPolicy(overrides: Partial<DataPolicy> = {}): DataPolicy {
  const yes = () => true;
  return {
    viewAny: yes,
    view: yes,
    create: yes,
    update: yes,
    delete: yes,
    viewTrashed: yes,
    restore: yes,
    forceDelete: yes,
    permittedAttributesForShow: () => null,
    hiddenAttributesForShow: () => null,
    permittedAttributesForCreate: () => null,
    permittedAttributesForUpdate: () => null,
    ...overrides,
  };
}

export interface DataScenario {
  db: Kysely<Schema>;
  registry: ModelRegistry;
  organizationId: number;
  userId: number;
  policy?: DataPolicy;
}

/** Runs fn as a request of `userId` in `organizationId` would: one tenant transaction. */
export function inTenant<T>(scenario: DataScenario, fn: (context: DataContext) => Promise<T>): Promise<T> {
  const { db, registry, organizationId, userId } = scenario;
  return withTenant(db, { organizationId, userId }, (trx) =>
    fn({
      trx: loose(trx),
      registry,
      user: { id: userId },
      scope: { organizationId, userId, routeGroup: 'tenant' },
      model: (slug) => registry.get(slug),
      policyFor: () => scenario.policy ?? fixedPolicy(),
      authorizeIncludes: () => {},
    }),
  );
}
