import type { MailMessage } from './mailer.js';

export function invitationMail(to: string, token: string, organizationName: string, appUrl: string, expiresAt: Date): MailMessage {
  const link = `${appUrl}/invitations/accept?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: `You are invited to join ${organizationName}`,
    text: [
      `You have been invited to join ${organizationName}.`,
      `Accept the invitation here: ${link}`,
      `Invitation token: ${token}`,
      `The invitation expires at ${expiresAt.toISOString()}.`,
    ].join('\n\n'),
  };
}
