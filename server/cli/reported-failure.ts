/** A failure the command has already reported in its own output: the CLI exits 1 without repeating it. */
export class ReportedFailureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportedFailureError';
  }
}
