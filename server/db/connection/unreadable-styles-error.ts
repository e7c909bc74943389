/** A connection whose session writes dates or intervals in a style the service cannot read (`session-styles.ts`). */
export class UnreadableStylesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableStylesError';
  }
}
