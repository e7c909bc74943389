/**
 * A query's answer that arrived after the session it was asked in had ended: the previous user's
 * records, refused rather than cached for whoever signs in next.
 */
export class SessionEndedError extends Error {
  constructor() {
    super('The session this request was sent in has ended.');
    this.name = 'SessionEndedError';
  }
}
