import { DomainError } from './domain-error.js';

/**
 * An include that would read or embed more records than one answer may hold
 * (`models/request-limits.ts`): a well-formed request the service will not carry out as asked.
 */
export class IncludeTooLargeError extends DomainError {
  static perHop(path: string, limit: number): IncludeTooLargeError {
    return new IncludeTooLargeError(
      `The include ${path} reaches more than ${limit} records, the most one include hop may read: ask for fewer rows (per_page) or a narrower include.`,
    );
  }

  static perAnswer(limit: number): IncludeTooLargeError {
    return new IncludeTooLargeError(
      `The includes embed more than ${limit} records, the most one answer may hold: ask for fewer rows (per_page) or fewer, shorter includes.`,
    );
  }
}
