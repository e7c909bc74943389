import { UnauthorizedActionError } from './data-errors.js';

/** The policy's verdict as the contract's 403. */
export function authorizeAction(allowed: boolean): void {
  if (!allowed) throw new UnauthorizedActionError();
}
