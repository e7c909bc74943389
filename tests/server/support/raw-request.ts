import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  head: string;
  body: string;
}

/** Sends bytes as they are over a fresh TCP connection and reads the answer until the server closes the connection (send `Connection: close` or HTTP/1.0). */
export function rawRequest(baseUrl: string, bytes: string): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, body });
    });
  });
}
