/** One host of a connection string. */
export interface HostPort {
  host: string;
  port: number;
}

const MULTI_HOST = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/;

/**
 * The hosts of a libpq-style connection string that names several (`postgres://u:p@a:5432,b:5432/db`,
 * as `pg_autoctl show uri` prints one), each as a connection string of its own; null for one host.
 * node-postgres connects to one host only, and the URL class cannot parse a host list. libpq's
 * `target_session_attrs` is dropped: following the writable host is what the list is for.
 */
export function connectionHosts(connectionString: string): { target: HostPort; url: string }[] | null {
  const match = MULTI_HOST.exec(connectionString);
  const hosts = match?.[3]?.split(',') ?? [];
  if (!match || hosts.length < 2) return null;
  const [, scheme, login = '', , rest] = match;
  return hosts.map((authority) => {
    const url = new URL(`${scheme}${login}${authority}${rest}`);
    url.searchParams.delete('target_session_attrs');
    return { target: { host: url.hostname, port: Number(url.port || 5432) }, url: url.toString() };
  });
}

/** One host's connection string of `connectionString`: for what every node answers alike, such as the login's roles. */
export function oneHost(connectionString: string): string {
  return connectionHosts(connectionString)?.[0]!.url ?? connectionString;
}
