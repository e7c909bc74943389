import { ResourcePolicy } from '../engine/index.js';

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
