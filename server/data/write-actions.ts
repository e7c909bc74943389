import { POLICY_ACTIONS } from '@gatehouse/engine';
import { sql, type CompiledQuery, type RawBuilder, type SqlBool } from 'kysely';
import { auditedWrite, type ReturningWrite, type WrittenAudit } from '../audit/audited-write.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ModelDefinition } from '../models/define-model.js';
import type { LooseRow } from '../models/loose-schema.js';
import type { DataActionContext } from './data-action-context.js';
import { RecordNotFoundError } from '../errors/data-errors.js';
import { gateRecord, gateStore, gateUpdate, type RecordMethod } from './action-gates.js';
import { writeCondition } from './record-condition.js';
import { recordSerializer } from './serialize-record.js';
import { validateBody } from './validate-body.js';
import { runWrite, type LastWrite } from '../db/transactions/read-ahead.js';
import { ownerStatement } from './write-plans.js';
import { constraintViolation } from './constraint-violation.js';
import { fieldLabel } from '../models/field-label.js';
import { loadIncludes } from '../listing/load-includes.js';

/**
 * How a write runs inside its request. `last` (LastWrite) is for a data endpoint's own write,
 * never for the operations of a nested request.
 */
export interface WriteOptions extends LastWrite {
  /** Field errors of a nested operation are keyed by its position, so the caller can find them. */
  errorPrefix?: string;
  /**
   * The relations the answer includes (`?include=`): authorized after the write fields and before
   * validation, read after the write in its transaction, which then does not end with it.
   */
  includes?: readonly string[];
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

/** The write with its audit row, one statement (`audit/audited-write.ts`); with `last`, its COMMIT in the same write on the wire. Undefined when it touched nothing. */
async function writeOnce(context: DataActionContext, model: ModelDefinition, written: ReturningWrite, entry: WrittenAudit, options: WriteOptions): Promise<LooseRow | undefined> {
  const statement: CompiledQuery = auditedWrite(context.trx, model, written, entry, context.user?.id ?? null);
  const [row] = await runWrite<LooseRow>(context.trx, statement, options).catch((error: unknown) => {
    throw constraintViolation(error, model, options.errorPrefix ?? '') ?? error;
  });
  return row;
}

/**
 * The write, its row. Row-level security can let a row be read but not written (an organization
 * outside the tenant context): such a write touches nothing, logs nothing and answers like a
 * record outside the gate.
 */
async function write(context: DataActionContext, model: ModelDefinition, written: ReturningWrite, entry: WrittenAudit, options: WriteOptions): Promise<LooseRow> {
  const row = await writeOnce(context, model, written, entry, options);
  if (row === undefined) throw new RecordNotFoundError();
  return row;
}

/** A record action's statement, given the WHERE that picks its record. */
type RecordStatement = (where: RawBuilder<SqlBool>) => ReturningWrite;

/**
 * A record action's write of the record its gates read. For a caller with record conditions its
 * WHERE holds them too (writeCondition): a concurrent transaction that took the record out of
 * them after the gates read it leaves nothing to write, and the gates, run again, answer as they
 * would now, a 404 or the 403 naming the conditions. So that they can, such a write does not
 * carry its transaction's COMMIT (`last`).
 */
async function writeRecord(context: DataActionContext, model: ModelDefinition, method: RecordMethod, id: unknown, statement: RecordStatement, entry: WrittenAudit, options: WriteOptions): Promise<LooseRow> {
  const key = sql<SqlBool>`${sql.ref('id')} = ${id}`;
  const condition = writeCondition(context, model, POLICY_ACTIONS[method]);
  if (condition === null) return write(context, model, statement(key), entry, options);
  const row = await writeOnce(context, model, statement(sql<SqlBool>`${key} and ${condition}`), entry, { ...options, last: false });
  if (row !== undefined) return row;
  await gateRecord(context, model, id, method);
  throw new RecordNotFoundError();
}

/** The includes a write's answer asks for, authorized: its write may then carry COMMIT only without them. */
function answering(context: DataActionContext, model: ModelDefinition, { includes = [], ...options }: WriteOptions): WriteOptions {
  context.authorizeIncludes(model, includes);
  return { ...options, includes, last: options.last === true && includes.length === 0 };
}

/** The written record as the caller may read it, with the relations its request includes. */
async function serialize(context: DataActionContext, model: ModelDefinition, row: LooseRow, { includes = [] }: WriteOptions = {}): Promise<LooseRow> {
  const included = includes.length === 0 ? undefined : await loadIncludes(context.trx, context.registry, model, [row], includes, context.scope);
  return recordSerializer(context, { included }).serialize(model, row);
}

export async function storeRecord(context: DataActionContext, model: ModelDefinition, rawBody: unknown, options: WriteOptions = {}): Promise<LooseRow> {
  const body = gateStore(context, model, rawBody);
  options = answering(context, model, options);
  const prefix = options.errorPrefix ?? '';
  const values = validateBody(model.validation?.create, body, prefix);
  const owned = {
    ...(await ownership(context, model, values, prefix)),
    ...(model.authorColumn ? { [model.authorColumn]: context.user?.id ?? null } : {}),
  };
  const inserted = context.trx.insertInto(model.table).values({ ...values, ...owned }).returningAll();
  return serialize(context, model, await write(context, model, inserted, { action: 'created' }, options), options);
}

export async function updateRecord(context: DataActionContext, model: ModelDefinition, id: unknown, rawBody: unknown, options: WriteOptions = {}): Promise<LooseRow> {
  const { before, body } = await gateUpdate(context, model, id, rawBody);
  options = answering(context, model, options);
  const prefix = options.errorPrefix ?? '';
  const values = validateBody(model.validation?.update, body, prefix);
  if (Object.keys(values).length === 0) return serialize(context, model, before, options);
  const owned = model.owner && values[model.owner.foreignKey] !== undefined ? await ownership(context, model, values, prefix) : {};
  const updated: RecordStatement = (where) => context.trx.updateTable(model.table).set({ ...values, ...owned }).where(where).returningAll();
  return serialize(context, model, await writeRecord(context, model, 'update', before.id, updated, { action: 'updated', before }, options), options);
}

export async function destroyRecord(context: DataActionContext, model: ModelDefinition, id: unknown, options: WriteOptions = {}): Promise<void> {
  const before = await gateRecord(context, model, id, 'delete');
  const removed: RecordStatement = (where) =>
    model.softDeletes
      ? context.trx.updateTable(model.table).set({ deleted_at: sql`now()` }).where(where).returningAll()
      : context.trx.deleteFrom(model.table).where(where).returningAll();
  await writeRecord(context, model, 'delete', before.id, removed, { action: 'deleted', before }, options);
}

export async function restoreRecord(context: DataActionContext, model: ModelDefinition, id: unknown, options: WriteOptions = {}): Promise<LooseRow> {
  const row = await gateRecord(context, model, id, 'restore');
  options = answering(context, model, options);
  const restored: RecordStatement = (where) => context.trx.updateTable(model.table).set({ deleted_at: null }).where(where).returningAll();
  return serialize(context, model, await writeRecord(context, model, 'restore', row.id, restored, { action: 'restored' }, options), options);
}

export async function forceDeleteRecord(context: DataActionContext, model: ModelDefinition, id: unknown, options: WriteOptions = {}): Promise<void> {
  const before = await gateRecord(context, model, id, 'forceDelete');
  const deleted: RecordStatement = (where) => context.trx.deleteFrom(model.table).where(where).returningAll();
  await writeRecord(context, model, 'forceDelete', before.id, deleted, { action: 'force_deleted', before }, options);
}
