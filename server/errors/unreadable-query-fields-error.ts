import { DomainError } from './domain-error.js';

/** A filter, sort or search reads fields the policy keeps from the caller: the rows it picks would tell their values. */
export class UnreadableQueryFieldsError extends DomainError {
  constructor(readonly fields: readonly string[]) {
    super(`You are not allowed to filter, sort or search by the following field(s): ${fields.join(', ')}`, { gate: 'fields', fields });
  }
}
