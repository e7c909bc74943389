/** The role cannot be given the requested access without handing out more than that access. */
export class UnsafeRoleError extends Error {
  constructor(
    readonly role: string,
    readonly reason: string,
  ) {
    super(`Refusing to use role "${role}": ${reason}.`);
    this.name = 'UnsafeRoleError';
  }
}
