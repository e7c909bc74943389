import type { MailMessage } from './mailer.js';

export function passwordResetMail(to: string, token: string, appUrl: string, ttlSeconds: number): MailMessage {
  const link = `${appUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(to)}`;
  return {
    to,
    subject: 'Reset your password',
    text: [
      'Someone asked to reset the password of your account.',
      `Open this link within ${Math.round(ttlSeconds / 60)} minutes to choose a new one: ${link}`,
      `Reset token: ${token}`,
      'If it was not you, ignore this message; your password stays as it is.',
    ].join('\n\n'),
  };
}
