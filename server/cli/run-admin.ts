import { inAdminTransaction, type AdminTransaction } from '../db/admin-transaction.js';
import { withDatabaseTarget } from './database-target.js';

/** An administration command's work: one transaction on the database target, as its owner. */
export function runAdmin<T>(work: (admin: AdminTransaction) => Promise<T>): Promise<T> {
  return withDatabaseTarget((target) => inAdminTransaction(target.ownerUrl, work));
}
