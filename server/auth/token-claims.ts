/** What a bearer token says, once its signature is verified. */
export interface TokenClaims {
  userId: number;
  sessionId: string;
  /** The route group the session was started in; null outside any group. */
  routeGroup: string | null;
  expiresAt: Date;
}
