export class ExistingRoleError extends Error {
  constructor(readonly role: string) {
    super(`Role "${role}" already exists; leave out --create (and --password) to grant it access.`);
    this.name = 'ExistingRoleError';
  }
}
