import { ResourcePolicy } from '@gatehouse/engine';

/** Roles come from migrations and the service role cannot write them; they are read-only here. */
export class RolePolicy extends ResourcePolicy {
  override create(): boolean {
    return false;
  }

  override update(): boolean {
    return false;
  }

  override delete(): boolean {
    return false;
  }
}
