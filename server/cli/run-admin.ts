import { inAdministrationTransaction, type AdministrationTransaction } from '../db/transactions/administration-transaction.js';
import { withMigratedDatabase } from './database-target.js';

/** An administration command's work: one transaction on the migrated database target, as its owner. */
export function runAdmin<T>(work: (admin: AdministrationTransaction) => Promise<T>): Promise<T> {
  return withMigratedDatabase((target) => inAdministrationTransaction(target.ownerUrl, work));
}
