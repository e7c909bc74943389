import { ResourcePolicy, type PolicyUser } from '@gatehouse/engine';

interface OrganizationRecord {
  id?: unknown;
}

/**
 * Organizations are created through `POST /api/organizations`, which makes the creator owner, and
 * deleting one would take every tenant row with it, so the data API does neither. Renaming is for
 * the organization a request acts in: in a group without tenancy (admin) there is none, and
 * row-level security would refuse the write anyway.
 */
export class OrganizationPolicy extends ResourcePolicy<OrganizationRecord> {
  override create(): boolean {
    return false;
  }

  override update(user: PolicyUser | null, record: OrganizationRecord): boolean {
    return super.update(user, record) && record.id === this.context.organization?.id;
  }

  override delete(): boolean {
    return false;
  }
}
