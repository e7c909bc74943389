import type { AddressInfo, Server } from 'node:net';

/** The URL a listening server answers at; an all-interfaces host reads as localhost. */
export function listeningUrl(server: Server, host: string | undefined): string {
  const { port } = server.address() as AddressInfo;
  const shown = !host || host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}
