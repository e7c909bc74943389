import { DomainError } from './domain-error.js';

/**
 * The holders a request counts against: the organization it addresses and the user who sends it,
 * or, for a guest of a group without auth, the client address it comes from.
 */
export const SHARES = ['organization', 'user', 'address'] as const;
export type Share = (typeof SHARES)[number];

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

const WHO: Record<Share, { subject: string; possessive: string }> = {
  organization: { subject: 'This organization already has', possessive: 'its' },
  user: { subject: 'You already have', possessive: 'your' },
  address: { subject: 'Your address already has', possessive: 'its' },
};

/** A request past its organization's, its user's or its address's share of the database pool, after waiting for it. */
export class FairShareExceededError extends DomainError {
  constructor(
    readonly share: Share,
    held: number,
    readonly retryAfterSeconds: number,
  ) {
    const { subject, possessive } = WHO[share];
    super(
      `${subject} ${plural(held, 'request')} running, ${possessive} share of the service's database connections. Please try again in ${plural(retryAfterSeconds, 'second')}.`,
    );
  }
}
