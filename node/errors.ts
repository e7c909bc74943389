/** What Gatehouse answered instead of what was asked; `status` is its HTTP status. */
export class GatehouseError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The token is not genuine, has expired, or its session was revoked: answer 401. */
export class UnauthenticatedError extends GatehouseError {
  constructor(message = 'Unauthenticated.') {
    super(401, message);
  }
}
