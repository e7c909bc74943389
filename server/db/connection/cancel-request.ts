import { connect } from 'node:net';

// The protocol's CancelRequest: length 16, the request code 1234 5678, the backend's key data.
const CANCEL_REQUEST_CODE = 80_877_102;

/** What a connected pg client learned of its backend at startup (pg keeps it off its typings). */
export interface BackendKey {
  readonly host: string;
  readonly port: number;
  readonly processID: number | null;
  readonly secretKey: number | null;
}

/**
 * Asks the server to cancel whatever statement the backend behind `client` is running: the
 * protocol's cancel request, on a connection of its own, so it needs no pooled connection and no
 * privilege. Resolves once the server has taken the request (it closes that connection), never
 * rejects: a cancel that cannot be delivered leaves the statement to its statement_timeout.
 */
export function sendCancelRequest({ host, port, processID, secretKey }: BackendKey): Promise<void> {
  if (processID === null || secretKey === null) return Promise.resolve();
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  packet.writeInt32BE(processID, 8);
  packet.writeInt32BE(secretKey, 12);
  return new Promise((resolve) => {
    const socket = host.startsWith('/') ? connect(`${host}/.s.PGSQL.${port}`) : connect(port, host);
    socket.once('connect', () => socket.end(packet));
    socket.once('close', () => resolve());
    socket.once('error', () => socket.destroy());
  });
}
