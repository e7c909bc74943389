import { z } from 'zod';
import { connectionHosts, oneHost } from '../db/connection/connection-hosts.js';

/** A URL of one of `protocols`; a connection string naming several hosts is read by its first. */
export const urlWith = (protocols: readonly string[], message: string) =>
  z.string().refine((value) => {
    try {
      return protocols.includes(new URL(oneHost(value)).protocol);
    } catch {
      return false;
    }
  }, message);

/** A PostgreSQL connection string, as the environment and `gatehouse.config.ts` both take one. */
export const postgresUrl = urlWith(['postgres:', 'postgresql:'], 'must be a connection string postgres://user:password@host:port/database');

/**
 * A read replica's connection string: one standby. A host list follows whichever host is the
 * primary (`connectionHosts`), which is the service's own connection, never a replica's.
 */
export const standbyUrl = postgresUrl.refine((value) => connectionHosts(value) === null, 'must name one standby, one host: a list of hosts follows their primary, as the service connection does');
