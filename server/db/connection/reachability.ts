import pg from 'pg';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { DatabaseUnreachableError } from './database-unreachable-error.js';

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused, is PostgreSQL running there?',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'the host name cannot be resolved right now',
  ETIMEDOUT: 'no answer',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

function reason(error: Error, url: URL): string {
  const code = (error as { code?: string }).code ?? '';
  if (code === '28P01' || code === '28000') return `it refused the login "${decodeURIComponent(url.username)}": ${error.message}`;
  if (code === '3D000') return `it has no database "${decodeURIComponent(url.pathname.slice(1))}"`;
  if (REASONS[code]) return REASONS[code];
  if (isDatabaseUnavailable(error)) return 'no answer in time';
  return error.message;
}

/**
 * Connects once to `connectionString`, so a wrong URL stops a command at once with one line that
 * names the host, port and setting to fix, instead of a raw socket error.
 */
export async function assertReachable(connectionString: string, setting = 'DATABASE_URL'): Promise<void> {
  const url = new URL(connectionString);
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    const why = error instanceof Error ? reason(error, url) : String(error);
    // A reason that ends its own sentence (a question) takes no second full stop.
    const sentence = /[.?!]$/.test(why) ? why : `${why}.`;
    throw new DatabaseUnreachableError(`Cannot use the database at ${url.hostname}:${url.port || 5432} (${setting}): ${sentence}`);
  } finally {
    await client.end().catch(() => {});
  }
}
