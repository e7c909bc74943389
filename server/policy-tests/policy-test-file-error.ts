/** A policy test file that cannot be run as written: names the file, the line and the key. */
export class PolicyTestFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly key: string,
    readonly problem: string,
  ) {
    super(`${file}:${line}: ${key === '' ? '' : `${key}: `}${problem}`);
    this.name = 'PolicyTestFileError';
  }
}
