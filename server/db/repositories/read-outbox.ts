import { inOwnerTransaction } from '../transactions/owner-transaction.js';

export interface OutboxMail {
  id: number;
  recipient: string;
  subject: string;
  body: string;
  createdAt: Date;
}

/** The newest `last` messages of the development outbox, oldest first. */
export function readOutbox(ownerConnectionString: string, last: number): Promise<OutboxMail[]> {
  return inOwnerTransaction(ownerConnectionString, async (client) => {
    const { rows } = await client.query<OutboxMail>(
      'SELECT * FROM (SELECT id, recipient, subject, body, created_at AS "createdAt" FROM mail_outbox ORDER BY id DESC LIMIT $1) newest ORDER BY id',
      [last],
    );
    return rows;
  });
}
