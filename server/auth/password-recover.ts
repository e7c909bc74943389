import { createPasswordReset } from '../db/repositories/password-resets.js';
import { queuePasswordReset } from '../db/repositories/mail-queue.js';
import { findUserByEmail } from '../db/repositories/users.js';
import type { GatehouseMiddleware } from '../http/state.js';
import { validate } from '../http/validate.js';
import type { MailPreparer } from '../mail/mail-worker.js';
import { passwordResetMail } from '../mail/password-reset-mail.js';
import type { Services } from '../services.js';
import { passwordRecoverSchema } from './auth-schemas.js';
import { createSecretToken } from './secret-token.js';
import { throttledAttempt } from '../throttle/throttled-attempt.js';

const ANSWER = { message: 'If the email address is registered, a password reset link has been sent to it.' };

/**
 * The mail worker's half: the reset row and its mail, written in one transaction, for a known
 * address only.
 */
export function passwordResetPreparer(ttlSeconds: number, publicUrl: () => string): MailPreparer {
  return async (trx, email) => {
    const user = await findUserByEmail(trx, email);
    if (!user) return null;
    const { token, hash } = createSecretToken();
    await createPasswordReset(trx, { userId: user.id, tokenHash: hash, expiresAt: new Date(Date.now() + ttlSeconds * 1000) });
    return passwordResetMail(user.email, token, publicUrl(), ttlSeconds);
  };
}

/**
 * Queues a reset link for the address before answering, so a process that dies after the
 * answer still sends it. The answer never tells whether the address is known: not by its words,
 * and not by its timing, since the user is looked up by the mail worker, after it.
 */
export function passwordRecover(services: Services): GatehouseMiddleware {
  return async (ctx) => {
    const { email } = validate(passwordRecoverSchema, ctx.request.body);
    await throttledAttempt(services, services.db, 'passwordRecover', { email, address: ctx.ip }, ctx.state.deadline);
    await queuePasswordReset(services.db, email, ctx.state.deadline);
    services.mail.kick();
    ctx.body = ANSWER;
  };
}
