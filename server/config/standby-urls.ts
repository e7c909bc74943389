import { replicaName } from '../db/replicas/replica-config.js';
import { ConfigError } from '../errors/config-error.js';
import { standbyUrl } from './connection-url.js';

/**
 * The URLs, once each is known to name one standby, and no standby twice (its reads and lag would
 * be counted under one name): a ConfigError at start otherwise, never echoing a URL's password.
 */
export function standbyUrls(urls: readonly string[]): readonly string[] {
  const names = new Set<string>();
  urls.forEach((url, index) => {
    const parsed = standbyUrl.safeParse(url);
    if (!parsed.success) throw new ConfigError(`replicas.urls.${index} ${parsed.error.issues[0]!.message}.`);
    const name = replicaName(url);
    if (names.has(name)) throw new ConfigError(`replicas.urls.${index} names ${name} again: list each standby once.`);
    names.add(name);
  });
  return urls;
}
