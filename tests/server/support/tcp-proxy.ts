import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { freePort } from '../../../server/db/cluster/embedded-cluster.js';

export interface TcpProxy {
  port: number;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Refuses new connections and cuts the open ones: to its clients the database is gone. */
  stop(): Promise<void>;
  /**
   * Every round trip so far, in order: each time a client writes after the server last spoke on
   * its connection (or first), it waits for an answer again; writes in a row are one round trip.
   */
  readonly roundTrips: readonly RoundTrip[];
}

export interface RoundTrip {
  /** The proxied connection, numbered from 1. */
  connection: number;
  /** What the client wrote in it, as Latin-1 (statements read as text). */
  sent: string;
}

/** A TCP relay to 127.0.0.1:targetPort that a test can switch off and on. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const roundTrips: RoundTrip[] = [];
  let connections = 0;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const proxy: TcpProxy = {
    port,
    roundTrips,
    start: () =>
      new Promise((resolve, reject) => {
        if (server) return resolve();
        server = createServer((client) => {
          const upstream = createConnection(targetPort, '127.0.0.1');
          track(client);
          track(upstream);
          client.pipe(upstream).pipe(client);
          const connection = (connections += 1);
          let current: RoundTrip | null = null;
          client.on('data', (chunk: Buffer) => {
            if (!current) roundTrips.push((current = { connection, sent: '' }));
            current.sent += chunk.toString('latin1');
          });
          upstream.on('data', () => (current = null));
          client.on('close', () => upstream.destroy());
          upstream.on('close', () => client.destroy());
        });
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (server) server.close(() => resolve());
        else resolve();
        server = undefined;
      }),
  };
  await proxy.start();
  return proxy;
}

/**
 * A request and its round trips: those of the connection that carried its opening, from the
 * opening to the end of its transaction (the pool's other connections serve background work).
 * Zero when no opening went out.
 */
export async function withRoundTrips<T>(proxy: TcpProxy, request: () => Promise<T>): Promise<{ response: T; roundTrips: number }> {
  const from = proxy.roundTrips.length;
  const response = await request();
  const during = proxy.roundTrips.slice(from);
  const start = during.findIndex((trip) => trip.sent.includes('gatehouse_open_request'));
  if (start < 0) return { response, roundTrips: 0 };
  const own = during.slice(start).filter((trip) => trip.connection === during[start]!.connection);
  return { response, roundTrips: own.findIndex((trip) => /(COMMIT|ROLLBACK)\0/.test(trip.sent)) + 1 };
}
