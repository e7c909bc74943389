import { createPasswordReset } from '../db/repositories/password-resets.js';
import { findUserByEmail } from '../db/repositories/users.js';
import type { GatehouseMiddleware } from '../http/state.js';
import { validate } from '../http/validate.js';
import { passwordResetMail } from '../mail/password-reset-mail.js';
import type { Services } from '../services.js';
import { passwordRecoverSchema } from './auth-schemas.js';
import { createSecretToken } from './secret-token.js';
import { throttledAttempt } from '../throttle/throttled-attempt.js';

const ANSWER = { message: 'If the email address is registered, a password reset link has been sent to it.' };

async function mailResetLink(services: Services, email: string): Promise<void> {
  const user = await findUserByEmail(services.db, email);
  if (!user) return;
  const { token, hash } = createSecretToken();
  const ttl = services.config.passwordResetTtlSeconds;
  await createPasswordReset(services.db, { userId: user.id, tokenHash: hash, expiresAt: new Date(Date.now() + ttl * 1000) });
  await services.mailer.send(passwordResetMail(user.email, token, services.publicUrl(), ttl));
}

/**
 * Mails a reset link to a known address. The answer never tells whether the address is known:
 * not by its words, and not by its timing, since even the user lookup happens after it is sent.
 */
export function passwordRecover(services: Services): GatehouseMiddleware {
  return async (ctx) => {
    const { email } = validate(passwordRecoverSchema, ctx.request.body);
    await throttledAttempt(services, services.db, 'passwordRecover', { email, address: ctx.ip });
    services.background.run('password reset mail', () => mailResetLink(services, email));
    ctx.body = ANSWER;
  };
}
