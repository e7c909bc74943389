import { ResourcePolicy, type PolicyUser } from '@gatehouse/engine';

interface UserRecord {
  id?: unknown;
}

/**
 * Accounts are created by registration and invitations, which set passwords; the data API only
 * reads them and lets a user rename themself. A name is global: every organization the user
 * belongs to shows it, so inside an organization nobody else changes it, not even a `*` owner
 * (anyone can own an organization). Outside any organization (the `admin` group), `users.*`
 * renames anyone.
 */
export class UserPolicy extends ResourcePolicy<UserRecord> {
  override create(): boolean {
    return false;
  }

  override update(user: PolicyUser | null, record: UserRecord): boolean {
    if (!super.update(user, record) || user === null) return false;
    return record.id === user.id || (this.context.organization === null && this.hasPermission('users.*'));
  }

  override delete(): boolean {
    return false;
  }
}
