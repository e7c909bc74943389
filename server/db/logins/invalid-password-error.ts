export class InvalidPasswordError extends Error {
  constructor() {
    super('A password needs at least 12 printable ASCII characters (or leave it out to have one generated).');
    this.name = 'InvalidPasswordError';
  }
}
