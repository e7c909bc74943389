import type { Executor } from '../repositories/executor.js';
import { readTableSafeguards, type TableSafeguards } from '../repositories/table-safeguards.js';
import { ModelDefinitionError } from '../../models/define-model.js';
import type { ModelRegistry } from '../../models/model-registry.js';
import { gatehouseCommand } from '../../errors/gatehouse-command.js';

// What a tenant table needs (docs/architecture/row-level-security.md, "Adding a tenant table?"), as the start-up check names it.
const TENANT_SAFEGUARDS: ReadonlyArray<[keyof TableSafeguards, string]> = [
  ['organizationId', 'an organization_id column'],
  ['rowSecurityEnabled', 'row-level security enabled'],
  ['rowSecurityForced', 'row-level security forced'],
  ['servicePolicyUsing', 'a gatehouse_app policy with USING'],
  ['servicePolicyWithCheck', 'a gatehouse_app policy with WITH CHECK'],
  ['analystPolicy', 'a gatehouse_analyst read policy'],
  ['organizationIndex', 'an index starting with organization_id'],
  ['serviceGrants', 'SELECT, INSERT, UPDATE and DELETE granted to gatehouse_app'],
  ['analystGrant', 'SELECT on its columns granted to gatehouse_analyst'],
];

/**
 * Fails closed at start-up: every model's table exists, and a tenant-owned model's table has
 * every safeguard that keeps tenants apart, so no request ever reaches a table that leaks.
 */
export async function checkModelTables(db: Executor, registry: ModelRegistry): Promise<void> {
  const tables = [...new Set(registry.models.map((model) => model.table))];
  if (tables.length === 0) return;
  const found = new Map((await readTableSafeguards(db, tables)).map((state) => [state.table, state]));
  for (const model of registry.models) {
    const state = found.get(model.table);
    if (!state?.exists) throw new ModelDefinitionError(model.slug, `table ${model.table} does not exist (run ${gatehouseCommand('migrate')}).`);
    if (!model.tenantOwned) continue;
    const missing = TENANT_SAFEGUARDS.filter(([key]) => !state[key]).map(([, label]) => label);
    if (missing.length > 0) {
      throw new ModelDefinitionError(
        model.slug,
        `table ${model.table} lacks ${missing.join(', ')}; a migration with SELECT gatehouse.enable_tenant_table('${model.table}') gives it all.`,
      );
    }
  }
}
