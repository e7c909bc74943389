export class MissingRoleError extends Error {
  constructor(readonly role: string) {
    super(`Role "${role}" does not exist; pass --create to create it.`);
    this.name = 'MissingRoleError';
  }
}
