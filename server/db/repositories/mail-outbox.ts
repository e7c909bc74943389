import type { Executor } from './executor.js';

export async function storeMail(db: Executor, mail: { recipient: string; subject: string; body: string }): Promise<void> {
  await db.insertInto('mail_outbox').values(mail).execute();
}
