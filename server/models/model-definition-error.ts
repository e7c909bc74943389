import { ConfigError } from '../errors/config-error.js';

/** A registration that cannot work; raised at start-up, like every configuration error. */
export class ModelDefinitionError extends ConfigError {
  constructor(slug: string, problem: string) {
    super(`Model ${slug}: ${problem}`);
    this.name = 'ModelDefinitionError';
  }
}
