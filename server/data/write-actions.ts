import { sql, type CompiledQuery } from 'kysely';
import { auditedWrite, type ReturningWrite, type WrittenAudit } from '../audit/audited-write.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow } from '../models/loose-schema.js';
import type { DataActionContext } from './data-action-context.js';
import { RecordNotFoundError } from '../errors/data-errors.js';
import { gateRecord, gateStore, gateUpdate } from './action-gates.js';
import { recordSerializer } from './serialize-record.js';
import { validateBody } from './validate-body.js';
import { runWrite, type LastWrite } from '../db/transactions/read-ahead.js';
import { ownerStatement } from './write-plans.js';
import { constraintViolation } from './constraint-violation.js';
import { fieldLabel } from '../models/field-label.js';

/**
 * How a write runs inside its request. `last` (LastWrite) is for a data endpoint's own write,
 * never for the operations of a nested request.
 */
export interface WriteOptions extends LastWrite {
  /** Field errors of a nested operation are keyed by its position, so the caller can find them. */
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
    const statement = ownerStatement(context.trx, context.registry.get(model.owner.model), context.scope, values[foreignKey]);
    const [parent] = (await context.trx.executeQuery<LooseRow>(statement)).rows;
    if (!parent) throw ValidationError.field(`${prefix}${foreignKey}`, `The selected ${fieldLabel(foreignKey)} is invalid.`);
    return { organization_id: parent.organization_id };
  }
  return model.tenantOwned ? { organization_id: context.scope.organizationId } : {};
}

/**
 * The write with its audit row, one statement (`audit/audited-write.ts`); with `last`, its
 * COMMIT in the same write on the wire. Row-level security can let a row be read but not written
 * (an organization outside the tenant context): such a write touches nothing, logs nothing and
 * answers like a record outside the gate.
 */
async function write(context: DataActionContext, model: ModelDefinition, written: ReturningWrite, entry: WrittenAudit, options: WriteOptions): Promise<LooseRow> {
  const statement: CompiledQuery = auditedWrite(context.trx, model, written, entry, context.user?.id ?? null);
  const [row] = await runWrite<LooseRow>(context.trx, statement, options).catch((error: unknown) => {
    throw constraintViolation(error, model, options.errorPrefix ?? '') ?? error;
  });
  if (row === undefined) throw new RecordNotFoundError();
  return row;
}

const serialize = (context: DataActionContext, model: ModelDefinition, row: LooseRow) => recordSerializer(context).serialize(model, row);

export async function storeRecord(context: DataActionContext, model: ModelDefinition, rawBody: unknown, options: WriteOptions = {}): Promise<LooseRow> {
  const body = gateStore(context, model, rawBody);
  const prefix = options.errorPrefix ?? '';
  const values = validateBody(model.validation?.create, body, prefix);
  const owned = {
    ...(await ownership(context, model, values, prefix)),
    ...(model.authorColumn ? { [model.authorColumn]: context.user?.id ?? null } : {}),
  };
  const inserted = context.trx.insertInto(model.table).values({ ...values, ...owned }).returningAll();
  return serialize(context, model, await write(context, model, inserted, { action: 'created' }, options));
}

export async function updateRecord(context: DataActionContext, model: ModelDefinition, id: unknown, rawBody: unknown, options: WriteOptions = {}): Promise<LooseRow> {
  const { before, body } = await gateUpdate(context, model, id, rawBody);
  const prefix = options.errorPrefix ?? '';
  const values = validateBody(model.validation?.update, body, prefix);
  if (Object.keys(values).length === 0) return serialize(context, model, before);
  const owned = model.owner && values[model.owner.foreignKey] !== undefined ? await ownership(context, model, values, prefix) : {};
  const updated = context.trx
    .updateTable(model.table)
    .set({ ...values, ...owned })
    .where(sql.ref('id'), '=', before.id)
    .returningAll();
  return serialize(context, model, await write(context, model, updated, { action: 'updated', before }, options));
}

export async function destroyRecord(context: DataActionContext, model: ModelDefinition, id: unknown, options: WriteOptions = {}): Promise<void> {
  const before = await gateRecord(context, model, id, 'delete');
  const removed = model.softDeletes
    ? context.trx.updateTable(model.table).set({ deleted_at: sql`now()` }).where(sql.ref('id'), '=', before.id).returningAll()
    : context.trx.deleteFrom(model.table).where(sql.ref('id'), '=', before.id).returningAll();
  await write(context, model, removed, { action: 'deleted', before }, options);
}

export async function restoreRecord(context: DataActionContext, model: ModelDefinition, id: unknown, options: WriteOptions = {}): Promise<LooseRow> {
  const row = await gateRecord(context, model, id, 'restore');
  const restored = context.trx.updateTable(model.table).set({ deleted_at: null }).where(sql.ref('id'), '=', row.id).returningAll();
  return serialize(context, model, await write(context, model, restored, { action: 'restored' }, options));
}

export async function forceDeleteRecord(context: DataActionContext, model: ModelDefinition, id: unknown, options: WriteOptions = {}): Promise<void> {
  const before = await gateRecord(context, model, id, 'forceDelete');
  await write(context, model, context.trx.deleteFrom(model.table).where(sql.ref('id'), '=', before.id).returningAll(), { action: 'force_deleted', before }, options);
}
