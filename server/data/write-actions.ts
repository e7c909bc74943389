import { sql } from 'kysely';
import { changedValues, recordAudit } from '../audit/record-audit.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow } from '../models/loose-schema.js';
import type { DataActionContext } from './data-action-context.js';
import { RecordNotFoundError } from '../errors/data-errors.js';
import { gateRecord, gateStore, gateUpdate } from './action-gates.js';
import { recordSerializer } from './serialize-record.js';
import { validateBody } from './validate-body.js';
import { gatedQuery } from '../listing/gated-query.js';

/** Field errors of a nested operation are keyed by its position, so the caller can find them. */
export interface WriteOptions {
  errorPrefix?: string;
}

/**
 * A child's parent must pass the parent's record gate, so a comment cannot be hung on another
 * tenant's post; the parent also supplies the organization. Tenant roots take the request's.
 */
async function ownership(context: DataActionContext, model: ModelDefinition, values: LooseRow, prefix: string): Promise<LooseRow> {
  if (model.owner) {
    const { foreignKey } = model.owner;
    if (values[foreignKey] === undefined) return {};
    const parentModel = context.registry.get(model.owner.model);
    const parent = await gatedQuery(context.trx, parentModel, context.scope)
      .select('organization_id')
      .where(sql.ref('id'), '=', values[foreignKey])
      .executeTakeFirst();
    if (!parent) throw ValidationError.field(`${prefix}${foreignKey}`, `The selected ${foreignKey.replaceAll('_', ' ')} is invalid.`);
    return { organization_id: parent.organization_id };
  }
  return model.tenantOwned ? { organization_id: context.scope.organizationId } : {};
}

/**
 * Row-level security can let a row be read but not written (an organization outside the tenant
 * context); such a write touches nothing and answers like a record outside the gate.
 */
function written<T>(row: T | undefined): T {
  if (row === undefined) throw new RecordNotFoundError();
  return row;
}

const serialize = (context: DataActionContext, model: ModelDefinition, row: LooseRow) => recordSerializer(context).serialize(model, row);

const audit = (context: DataActionContext, model: ModelDefinition, entry: Omit<Parameters<typeof recordAudit>[2], 'userId'>) =>
  recordAudit(context.trx, model, { ...entry, userId: context.user?.id ?? null });

export async function storeRecord(context: DataActionContext, model: ModelDefinition, rawBody: unknown, options: WriteOptions = {}): Promise<LooseRow> {
  const body = gateStore(context, model, rawBody);
  const prefix = options.errorPrefix ?? '';
  const values = validateBody(model.validation?.create, body, prefix);
  const owned = {
    ...(await ownership(context, model, values, prefix)),
    ...(model.authorColumn ? { [model.authorColumn]: context.user?.id ?? null } : {}),
  };
  const row = await context.trx.insertInto(model.table).values({ ...values, ...owned }).returningAll().executeTakeFirstOrThrow();
  await audit(context, model, { action: 'created', record: row, oldValues: null, newValues: row });
  return serialize(context, model, row);
}

export async function updateRecord(context: DataActionContext, model: ModelDefinition, id: unknown, rawBody: unknown, options: WriteOptions = {}): Promise<LooseRow> {
  const { before, body } = await gateUpdate(context, model, id, rawBody);
  const prefix = options.errorPrefix ?? '';
  const values = validateBody(model.validation?.update, body, prefix);
  if (Object.keys(values).length === 0) return serialize(context, model, before);
  const owned = model.owner && values[model.owner.foreignKey] !== undefined ? await ownership(context, model, values, prefix) : {};
  const after = written(
    await context.trx
      .updateTable(model.table)
      .set({ ...values, ...owned })
      .where(sql.ref('id'), '=', before.id)
      .returningAll()
      .executeTakeFirst(),
  );
  await audit(context, model, { action: 'updated', record: after, ...changedValues(before, after) });
  return serialize(context, model, after);
}

export async function destroyRecord(context: DataActionContext, model: ModelDefinition, id: unknown): Promise<void> {
  const row = await gateRecord(context, model, id, 'delete');
  const removed = model.softDeletes
    ? context.trx.updateTable(model.table).set({ deleted_at: sql`now()` }).where(sql.ref('id'), '=', row.id).returning('id').executeTakeFirst()
    : context.trx.deleteFrom(model.table).where(sql.ref('id'), '=', row.id).returning('id').executeTakeFirst();
  written(await removed);
  await audit(context, model, { action: 'deleted', record: row, oldValues: row, newValues: null });
}

export async function restoreRecord(context: DataActionContext, model: ModelDefinition, id: unknown): Promise<LooseRow> {
  const row = await gateRecord(context, model, id, 'restore');
  const restored = written(
    await context.trx.updateTable(model.table).set({ deleted_at: null }).where(sql.ref('id'), '=', row.id).returningAll().executeTakeFirst(),
  );
  await audit(context, model, { action: 'restored', record: restored, oldValues: null, newValues: null });
  return serialize(context, model, restored);
}

export async function forceDeleteRecord(context: DataActionContext, model: ModelDefinition, id: unknown): Promise<void> {
  const row = await gateRecord(context, model, id, 'forceDelete');
  written(await context.trx.deleteFrom(model.table).where(sql.ref('id'), '=', row.id).returning('id').executeTakeFirst());
  await audit(context, model, { action: 'force_deleted', record: row, oldValues: row, newValues: null });
}
