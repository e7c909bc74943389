export class UsageError extends Error {
  constructor(readonly usage: string) {
    super(`Usage: ${usage}`);
    this.name = 'UsageError';
  }
}
