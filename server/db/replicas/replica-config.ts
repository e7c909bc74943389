/** Hot standbys of the primary's streaming replication that serve reads (`docs/operations/replicas.md`). */
export interface ReplicaConfig {
  /** The standbys' connection strings, as the service logs in to them (the primary's service login). */
  urls: readonly string[];
  /**
   * How far a replica may lag behind the primary, by the age of the last transaction it replayed,
   * and still serve callers who have not written; default 1000 ms. A caller's own writes are
   * always read back, from wherever has replayed them.
   */
  maxLagMs?: number;
}

export const DEFAULT_REPLICA_MAX_LAG_MS = 1_000;

/** host:port of a replica's URL, the name `ReplicaState` gives it. */
export function replicaName(url: string): string {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || '5432'}`;
}
