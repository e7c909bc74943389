/** An admin command named a user or role the database does not have. */
export class UnknownRecordError extends Error {
  constructor(what: 'user' | 'role', key: string, value: string) {
    super(`No ${what} has the ${key} "${value}".`);
    this.name = 'UnknownRecordError';
  }
}
