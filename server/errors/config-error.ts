/** A server configuration that cannot work; raised at start-up, never during a request. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
