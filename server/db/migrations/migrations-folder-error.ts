/** An application's migrations folder that cannot be read as one, raised before anything runs. */
export class MigrationsFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationsFolderError';
  }
}
