import { ResourcePolicy, type PolicyUser } from '@gatehouse/engine';

interface UserRecord {
  id?: unknown;
}

/**
 * Accounts are created by registration and invitations, which set passwords; the data API only
 * reads them and lets a user rename themself (or a `*` role rename anyone).
 */
export class UserPolicy extends ResourcePolicy<UserRecord> {
  override create(): boolean {
    return false;
  }

  override update(user: PolicyUser | null, record: UserRecord): boolean {
    return super.update(user, record) && user !== null && (record.id === user.id || this.hasPermission('*'));
  }

  override delete(): boolean {
    return false;
  }
}
