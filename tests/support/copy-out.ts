import type pg from 'pg';

/**
 * Runs `COPY ... TO STDOUT` and returns what the server sent. node-postgres drops COPY data
 * unless the query object collects it, which is what this one does.
 */
export function copyOut(client: pg.Client, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let failed = false;
    const query = {
      submit: (connection: { query(text: string): void }) => connection.query(text),
      handleCopyData: (message: { chunk: Buffer }) => void chunks.push(message.chunk),
      handleCommandComplete: () => {},
      handleReadyForQuery: () => void (failed || resolve(Buffer.concat(chunks).toString('utf8'))),
      handleError: (error: Error) => {
        failed = true;
        reject(error);
      },
    };
    void client.query(query as unknown as pg.QueryConfig);
  });
}
