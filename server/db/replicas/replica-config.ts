/** Hot standbys of the primary's streaming replication that serve reads (`docs/operations/replicas.md`). */
export interface ReplicaConfig {
  /** The standbys' connection strings, as the service logs in to them (the primary's service login). */
  urls: readonly string[];
  /**
   * How far a replica may lag behind the primary and still serve reads, by the age of the last
   * transaction it replayed or how long it has been behind if that is less; default 1000 ms. A
   * caller who wrote reads only from one that has also replayed that write, else from the primary.
   */
  maxLagMs?: number;
}

export const DEFAULT_REPLICA_MAX_LAG_MS = 1_000;

/** host:port of a replica's URL, the name `ReplicaState` gives it. */
export function replicaName(url: string): string {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || '5432'}`;
}
