import { once } from 'node:events';
import { createServer } from 'node:net';
import { ConfigError } from '../errors/config-error.js';

/** The listen error of `port` as the one line an operator needs, naming the variable that set it; or the error itself. */
export function portError(error: unknown, port: number, variable = 'PORT'): unknown {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'EADDRINUSE') return new ConfigError(`${variable} ${port} is already in use: stop what listens there or set ${variable} to a free port.`);
  if (code === 'EACCES') return new ConfigError(`${variable} ${port} needs privileges this user lacks: set ${variable} above 1023.`);
  if (code === 'EADDRNOTAVAIL') return new ConfigError(`HOST is not an address of this machine (${variable} ${port}).`);
  return error;
}

/** Fails early, before migrations run, when the server could not listen on `port`. */
export async function assertPortFree(port: number, host: string | undefined, variable = 'PORT'): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  try {
    probe.listen(port, host);
    await once(probe, 'listening');
  } catch (error) {
    throw portError(error, port, variable);
  } finally {
    probe.close();
  }
}
