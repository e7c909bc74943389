import { HttpError } from './http-error.js';

/** Wrong email or password on the login path; the same answer for both so emails stay private. */
export class InvalidCredentialsError extends HttpError {
  constructor() {
    super(401, 'Invalid credentials');
  }
}
