import { describe, expect, it } from 'vitest';
import { envConfig } from '../../../../server/cli/env-config.js';
import { readEnvironment } from '../../../../server/cli/environment.js';
import { resolveConfig } from '../../../../server/config/server-config.js';
import type { GatehouseConfig } from '../../../../server/config/gatehouse-config.js';
import { ConfigError } from '../../../../server/errors/config-error.js';

// The replicas as `gatehouse serve` reads them: GATEHOUSE_REPLICA_URLS and
// GATEHOUSE_REPLICA_MAX_LAG_MS, or the config file's `replicas`.
const replicas = (env: NodeJS.ProcessEnv, app?: GatehouseConfig) => resolveConfig(envConfig(readEnvironment(env), 'postgres://unused', 'k4.secret.unused', app)).replicas;
const URLS = ['postgres://svc:secret@replica-1:5432/gatehouse', 'postgres://svc:secret@replica-2/gatehouse'];

describe('the replicas setting', () => {
  it('is none unless GATEHOUSE_REPLICA_URLS lists some, each within GATEHOUSE_REPLICA_MAX_LAG_MS (default 1000)', () => {
    expect(replicas({})).toBeNull();
    expect(replicas({ GATEHOUSE_REPLICA_URLS: URLS.join(', ') })).toEqual({ urls: URLS, maxLagMs: 1000 });
    expect(replicas({ GATEHOUSE_REPLICA_URLS: URLS[0], GATEHOUSE_REPLICA_MAX_LAG_MS: '250' })).toEqual({ urls: [URLS[0]], maxLagMs: 250 });
  });

  it('refuses what is no list of connection strings, naming the variable', () => {
    expect(() => readEnvironment({ GATEHOUSE_REPLICA_URLS: 'replica-1:5432' })).toThrow(/^GATEHOUSE_REPLICA_URLS must be comma-separated connection strings/);
    expect(() => readEnvironment({ GATEHOUSE_REPLICA_MAX_LAG_MS: '0' })).toThrow(/^GATEHOUSE_REPLICA_MAX_LAG_MS must be a whole number of milliseconds above 0/);
  });

  it('takes the config file\'s replicas first, and GATEHOUSE_REPLICA_MAX_LAG_MS where it names no bound', () => {
    const env = { GATEHOUSE_REPLICA_URLS: URLS[1], GATEHOUSE_REPLICA_MAX_LAG_MS: '250' };
    expect(replicas(env, { replicas: { urls: [URLS[0]!], maxLagMs: 5000 } })).toEqual({ urls: [URLS[0]], maxLagMs: 5000 });
    expect(replicas(env, { replicas: { urls: [URLS[0]!] } })).toEqual({ urls: [URLS[0]], maxLagMs: 250 });
    expect(replicas(env, { replicas: { urls: [] } })).toBeNull();
  });

  it('refuses at start what names no one standby: a host list, or one server twice', () => {
    const refused = (urls: string[]) => () => replicas({}, { replicas: { urls } });
    // A failover formation's URL follows its primary: the service's own connection, no replica.
    expect(refused(['postgres://svc:secret@node1:5432,node2:5432/gatehouse'])).toThrow(ConfigError);
    expect(refused(['postgres://svc:secret@node1:5432,node2:5432/gatehouse'])).toThrow(/^replicas\.urls\.0 must name one standby/);
    expect(refused([URLS[0]!, 'postgres://other:secret@replica-1/gatehouse'])).toThrow(/^replicas\.urls\.1 names replica-1:5432 again/);
  });
});
