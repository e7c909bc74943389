import { sql } from 'kysely';
import { changedValues, recordAudit } from '../audit/record-audit.js';
import type { ModelDefinition } from '../models/define-model.js';
import { gatedQuery } from '../query/build-index-query.js';
import type { LooseRow } from '../query/loose-schema.js';
import { authorizeAction } from './authorize-action.js';
import { checkWritableFields } from './check-writable-fields.js';
import type { DataContext } from './data-context.js';
import { ValidationFailedError } from './data-errors.js';
import { findRecord } from './find-record.js';
import { serializeRecord } from './serialize-record.js';
import { requireObjectBody, validateBody } from './validate-body.js';

/** Field errors of a nested operation are keyed by its position, so the caller can find them. */
export interface WriteOptions {
  errorPrefix?: string;
}

/**
 * A child's parent must pass the parent's record gate, so a comment cannot be hung on another
 * tenant's post; the parent also supplies the organization. Tenant roots take the request's.
 */
async function ownership(context: DataContext, model: ModelDefinition, values: LooseRow, prefix: string): Promise<LooseRow> {
  if (model.owner) {
    const { foreignKey } = model.owner;
    if (values[foreignKey] === undefined) return {};
    const parentModel = context.registry.get(model.owner.model);
    const parent = await gatedQuery(context.trx, parentModel, context.scope)
      .select('organization_id')
      .where(sql.ref('id'), '=', values[foreignKey])
      .executeTakeFirst();
    if (!parent) throw new ValidationFailedError({ [`${prefix}${foreignKey}`]: [`The selected ${foreignKey.replaceAll('_', ' ')} is invalid.`] });
    return { organization_id: parent.organization_id };
  }
  return model.tenantOwned ? { organization_id: context.scope.organizationId } : {};
}

const serialize = (context: DataContext, model: ModelDefinition, row: LooseRow) =>
  serializeRecord(model, row, { policyFor: context.policyFor, user: context.user, fields: {} });

export async function storeRecord(context: DataContext, model: ModelDefinition, rawBody: unknown, options: WriteOptions = {}): Promise<LooseRow> {
  const policy = context.policyFor(model);
  authorizeAction(policy.create(context.user));
  const body = requireObjectBody(rawBody);
  checkWritableFields(model, policy, context.user, body, 'create');
  const prefix = options.errorPrefix ?? '';
  const values = validateBody(model.validation?.create, body, prefix);
  const server = {
    ...(await ownership(context, model, values, prefix)),
    ...(model.authorColumn ? { [model.authorColumn]: context.user?.id ?? null } : {}),
  };
  const row = await context.trx.insertInto(model.table).values({ ...values, ...server }).returningAll().executeTakeFirstOrThrow();
  await recordAudit(context.trx, model, { action: 'created', record: row, oldValues: null, newValues: row, userId: context.user?.id ?? null });
  return serialize(context, model, row);
}

export async function updateRecord(context: DataContext, model: ModelDefinition, id: unknown, rawBody: unknown, options: WriteOptions = {}): Promise<LooseRow> {
  const before = await findRecord(context, model, id);
  const policy = context.policyFor(model);
  authorizeAction(policy.update(context.user, before));
  const body = requireObjectBody(rawBody);
  checkWritableFields(model, policy, context.user, body, 'update');
  const prefix = options.errorPrefix ?? '';
  const values = validateBody(model.validation?.update, body, prefix);
  const owned = model.owner && values[model.owner.foreignKey] !== undefined ? await ownership(context, model, values, prefix) : {};
  if (Object.keys(values).length === 0) return serialize(context, model, before);
  const after = await context.trx
    .updateTable(model.table)
    .set({ ...values, ...owned })
    .where(sql.ref('id'), '=', before.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const { oldValues, newValues } = changedValues(before, after);
  await recordAudit(context.trx, model, { action: 'updated', record: after, oldValues, newValues, userId: context.user?.id ?? null });
  return serialize(context, model, after);
}

export async function destroyRecord(context: DataContext, model: ModelDefinition, id: unknown): Promise<void> {
  const row = await findRecord(context, model, id);
  authorizeAction(context.policyFor(model).delete(context.user, row));
  if (model.softDeletes) {
    await context.trx.updateTable(model.table).set({ deleted_at: sql`now()` }).where(sql.ref('id'), '=', row.id).execute();
  } else {
    await context.trx.deleteFrom(model.table).where(sql.ref('id'), '=', row.id).execute();
  }
  await recordAudit(context.trx, model, { action: 'deleted', record: row, oldValues: row, newValues: null, userId: context.user?.id ?? null });
}

export async function restoreRecord(context: DataContext, model: ModelDefinition, id: unknown): Promise<LooseRow> {
  const row = await findRecord(context, model, id, 'only');
  authorizeAction(context.policyFor(model).restore(context.user, row));
  const restored = await context.trx
    .updateTable(model.table)
    .set({ deleted_at: null })
    .where(sql.ref('id'), '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordAudit(context.trx, model, { action: 'restored', record: restored, oldValues: null, newValues: null, userId: context.user?.id ?? null });
  return serialize(context, model, restored);
}

export async function forceDeleteRecord(context: DataContext, model: ModelDefinition, id: unknown): Promise<void> {
  const row = await findRecord(context, model, id, model.softDeletes ? 'with' : 'without');
  authorizeAction(context.policyFor(model).forceDelete(context.user, row));
  await context.trx.deleteFrom(model.table).where(sql.ref('id'), '=', row.id).execute();
  await recordAudit(context.trx, model, { action: 'force_deleted', record: row, oldValues: row, newValues: null, userId: context.user?.id ?? null });
}
