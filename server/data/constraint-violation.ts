import pg from 'pg';
import { ValidationError } from '../errors/validation-error.js';
import type { ModelDefinition } from '../models/define-model.js';
import { fieldLabel } from '../models/field-label.js';

// Where it may, PostgreSQL names a violated key's columns in the detail, before its values:
// `Key (a, b)=(…)`. Under row-level security it leaves the detail out.
const KEY_COLUMNS = /^Key \((.+?)\)=\(/;
// The tenant column comes first in a composite key and is never the caller's to fix.
const SCOPE = 'organization_id';

/**
 * The field a caller can fix: the key's last plain column when the detail names it, else the
 * longest of the model's fields that the constraint's name holds as a word (PostgreSQL's own
 * names read `posts_title_key`, `posts_title_check`). Values never go into a message: an
 * exclusion's detail also carries the conflicting row's.
 */
function fieldOf(error: pg.DatabaseError, fields: readonly string[]): string | undefined {
  const column = KEY_COLUMNS.exec(error.detail ?? '')?.[1]?.split(', ').at(-1);
  if (column !== undefined && fields.includes(column)) return column;
  const words = `_${error.constraint ?? ''}_`;
  return fields
    .filter((field) => field !== SCOPE && words.includes(`_${field}_`))
    .sort((a, b) => b.length - a.length)[0];
}

function violation(error: pg.DatabaseError, model: ModelDefinition): [field: string, message: string] | null {
  const field = error.column ?? fieldOf(error, Object.keys(model.attributes));
  const rule = error.constraint ?? error.table ?? 'the table';
  if (field === undefined) return error.code?.startsWith('23') ? [rule, `The given data violates the rule ${rule}.`] : null;
  switch (error.code) {
    case '23502':
      return [field, `The ${fieldLabel(field)} field is required.`];
    case '23505':
    case '23P01':
      return [field, `The ${fieldLabel(field)} has already been taken.`];
    case '23503':
    case '23001':
      // A key of another table's rows points here: this record is still in use.
      if (error.table !== undefined && error.table !== model.table) return ['id', `The record is still referenced from ${fieldLabel(error.table)}.`];
      return [field, `The selected ${fieldLabel(field)} is invalid.`];
    case '23514':
      return [field, `The ${fieldLabel(field)} field is invalid.`];
    default:
      return null;
  }
}

/**
 * A write the table's own constraints refuse (not null, unique, foreign key, check, exclusion) is
 * the body's fault, not the service's: a 422 naming the field, like the model's validation, or
 * the rule when no field of the model can be told. Null for any other failure. Field names carry
 * the nested operation's prefix.
 */
export function constraintViolation(error: unknown, model: ModelDefinition, prefix: string): ValidationError | null {
  if (!(error instanceof pg.DatabaseError)) return null;
  const found = violation(error, model);
  return found && ValidationError.field(`${prefix}${found[0]}`, found[1]);
}
