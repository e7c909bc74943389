import { resetPassword as storeNewPassword } from '../db/repositories/password-resets.js';
import { ValidationError } from '../errors/validation-error.js';
import type { GatehouseMiddleware } from '../http/state.js';
import { validate } from '../http/validate.js';
import { passwordResetSchema } from './auth-schemas.js';
import { hashPassword } from './password.js';
import { hashSecretToken } from './secret-token.js';
import type { Services } from '../services.js';
import { throttledAttempt } from '../throttle/throttled-attempt.js';

/** Sets a new password from a mailed link; the user's sessions are all revoked. */
export function passwordReset(services: Services): GatehouseMiddleware {
  return async (ctx) => {
    const input = validate(passwordResetSchema, ctx.request.body);
    const deadline = ctx.state.deadline;
    await throttledAttempt(services, services.db, 'passwordReset', { email: input.email, address: ctx.ip }, deadline);
    const passwordHash = await hashPassword(input.password);
    const reset = await storeNewPassword(services.db, { tokenHash: hashSecretToken(input.token), email: input.email, passwordHash }, deadline);
    if (!reset) throw ValidationError.field('token', 'This password reset token is invalid or has expired.');
    ctx.body = { message: 'Your password has been reset.' };
  };
}
