export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Where the service's mail goes; plug in SMTP or an email API by implementing this. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
