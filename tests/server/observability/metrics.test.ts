import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envConfig } from '../../../server/cli/env-config.js';
import { readEnvironment } from '../../../server/cli/environment.js';
import { ConfigError } from '../../../server/errors/config-error.js';
import { startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';

const PROMTOOL = '/usr/bin/promtool';
const DASHBOARD = new URL('../../../docs/operations/grafana-dashboard.json', import.meta.url);
const ALERTS = new URL('../../../docs/operations/prometheus-alerts.yml', import.meta.url);
/** The metric names a PromQL text reads: every name of ours or of prom-client's defaults. */
const metricNames = (promql: string) => [...promql.matchAll(/\b(?:gatehouse|http|nodejs|process)_[a-z0-9_]+/g)].map(([name]) => name);
let server: TestServer;
let metricsUrl: string;

beforeAll(async () => {
  server = await startDataServer({ metrics: { port: 0, host: '127.0.0.1' }, loginThrottle: { maxAttempts: 1, decaySeconds: 600 }, decisionLog: { store: 'database' } });
  metricsUrl = server.server.metricsUrl!;
});

afterAll(() => server.close());

const scrape = async () => {
  const response = await fetch(metricsUrl);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
};

/** The value of the sample `name{labels}` (labels in the exposition's order), or undefined. */
const sample = (text: string, name: string, labels = '') => {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
};

describe('Prometheus metrics', () => {
  it('count requests, decisions, sessions, throttle rejections, the pool and the statement cache', async () => {
    const owner = await server.login('owner@acme.test');
    const viewer = await server.login('viewer@acme.test');
    expect((await server.api.get('/api/acme/posts', { token: viewer })).status).toBe(200);
    const [post] = await server.sql<{ id: number }>("SELECT p.id FROM posts p JOIN organizations o ON o.id = p.organization_id WHERE o.slug = 'acme' LIMIT 1");
    expect((await server.api.get(`/api/acme/posts/${post!.id}`, { token: owner })).status).toBe(200);
    expect((await server.api.delete(`/api/acme/posts/${post!.id}`, { token: viewer })).status).toBe(403);
    expect((await server.api.get('/api/acme/posts')).status).toBe(401);
    expect((await server.api.get('/api/globex/posts', { token: viewer })).status).toBe(404);
    // A second wrong password from the same address for the same email: the limit is one.
    for (const expected of [401, 429]) {
      expect((await server.api.post('/api/auth/login', { body: { email: 'editor@acme.test', password: 'wrong password' } })).status).toBe(expected);
    }

    await server.server.decisionStore!.drain();
    const text = await scrape();
    expect(sample(text, 'gatehouse_decision_log_events_total', 'result="written"')).toBe(1);
    expect(sample(text, 'gatehouse_decision_log_events_total', 'result="dropped"')).toBe(0);
    expect(sample(text, 'gatehouse_decision_log_events_total', 'result="over_share"')).toBe(0);
    expect(sample(text, 'gatehouse_decision_log_queue')).toBe(0);
    expect(sample(text, 'gatehouse_sessions_created_total')).toBe(2);
    expect(sample(text, 'gatehouse_throttle_rejections_total', 'action="login"')).toBe(1);
    expect(sample(text, 'gatehouse_throttle_rejections_total', 'action="register"')).toBe(0);
    expect(sample(text, 'gatehouse_decisions_total', 'gate="policy",outcome="allowed"')).toBe(2);
    expect(sample(text, 'gatehouse_decisions_total', 'gate="policy",outcome="denied"')).toBe(1);
    expect(sample(text, 'gatehouse_decisions_total', 'gate="authentication",outcome="denied"')).toBe(1);
    expect(sample(text, 'gatehouse_decisions_total', 'gate="organization",outcome="denied"')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', 'method="GET",route="/api/:organization/:model/:id",status_class="2xx",route_group="tenant"')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', 'method="DELETE",route="/api/:organization/:model/:id",status_class="4xx",route_group="tenant"')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', 'method="POST",route="/api/auth/login",status_class="4xx",route_group="tenant"')).toBe(2);
    // A histogram's buckets count up to its +Inf bucket, which is its count; the sum is the time observed.
    const logins = 'method="POST",route="/api/auth/login",status_class="4xx",route_group="tenant"';
    const buckets = text.split('\n').filter((line) => line.startsWith('http_request_duration_seconds_bucket{') && line.includes(logins));
    expect(buckets.length).toBe(14);
    const counts = buckets.map((line) => Number(line.split(' ').at(-1)));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(sample(text, 'http_request_duration_seconds_bucket', `le="+Inf",${logins}`)).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_sum', logins)).toBeGreaterThan(0);
    // Each data request held its transaction once.
    expect(sample(text, 'gatehouse_tenant_transaction_duration_seconds_count')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'gatehouse_db_pool_connections', 'state="total"')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'gatehouse_db_pool_connections', 'state="waiting"')).toBe(0);
    expect(sample(text, 'gatehouse_statement_cache_total', 'result="hit"')).toBeGreaterThan(0);
    expect(sample(text, 'gatehouse_statement_cache_total', 'result="miss"')).toBeGreaterThan(0);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeDefined();
  });

  it('carry no user, organization, email or raw path in any label', async () => {
    const token = await server.login('owner@acme.test');
    const [post] = await server.sql<{ id: number }>("SELECT p.id FROM posts p JOIN organizations o ON o.id = p.organization_id WHERE o.slug = 'acme' LIMIT 1");
    await server.api.get(`/api/acme/posts/${post!.id}?include=comments`, { token });
    await server.api.get('/api/acme/no-such-thing/at/all', { token });
    await server.api.get('/not/under/the/api');
    const labels = [...(await scrape()).matchAll(/(\w+)="([^"]*)"/g)];
    expect(labels.length).toBeGreaterThan(0);
    for (const [, name, value] of labels) {
      expect(name).not.toMatch(/user|organi[sz]ation|email|path|tenant/);
      expect(value).not.toMatch(/@|acme|globex|no-such-thing|not\/under/);
      expect(value).not.toContain(`/${post!.id}`);
    }
  });

  it('add no series for more ids, organizations, emails or unknown paths', async () => {
    const token = await server.login('owner@acme.test');
    const posts = await server.sql<{ id: number }>("SELECT p.id FROM posts p JOIN organizations o ON o.id = p.organization_id WHERE o.slug = 'acme' ORDER BY p.id LIMIT 5");
    expect(posts.length).toBeGreaterThan(1);
    const requests = (round: number) => [
      ...posts.map(({ id }) => server.api.get(`/api/acme/posts/${id}`, { token })),
      server.api.get(`/api/acme/posts/${900_000 + round}`, { token }),
      server.api.get(`/api/org-${round}/posts`, { token }),
      server.api.get(`/api/acme/unknown-${round}/${round}`, { token }),
      server.api.get(`/nowhere-${round}/at/all?email=someone-${round}@example.test`),
      server.api.post('/api/auth/login', { body: { email: `nobody-${round}@example.test`, password: 'wrong password' } }),
    ];
    const series = async () =>
      (await scrape())
        .split('\n')
        .filter((line) => line.startsWith('http_request_duration_seconds_count') || line.startsWith('gatehouse_'))
        .map((line) => line.split(' ')[0])
        .sort();
    await Promise.all(requests(0));
    const before = await series();
    for (let round = 1; round <= 3; round += 1) await Promise.all(requests(round));
    expect(await series()).toEqual(before);
  });

  it('pass promtool check metrics', async () => {
    const text = await scrape();
    const checked = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(checked.error).toBeUndefined();
    expect({ status: checked.status, output: `${checked.stdout}${checked.stderr}` }).toEqual({ status: 0, output: '' });
  });

  it('are served on their own port only, never on the public API', async () => {
    expect(new URL(metricsUrl).port).not.toBe(new URL(server.api.baseUrl).port);
    expect((await server.api.get('/metrics')).status).toBe(404);
    expect((await server.api.get('/api/metrics')).status).toBe(404);
    expect((await fetch(new URL('/', metricsUrl))).status).toBe(404);
  });

  it('are what the shipped dashboard and alerts read, and the alerts load', async () => {
    expect((await server.api.get('/api/acme/posts')).status).toBe(401);
    // Every family by its own name (`# TYPE` lines) and every sample by its (`_bucket`, `_count`, ...), with its label names.
    const lines = (await scrape()).split('\n');
    const scraped = new Map<string, Set<string>>();
    for (const line of lines.filter((candidate) => candidate.startsWith('# TYPE '))) scraped.set(line.split(' ')[2]!, new Set());
    for (const line of lines.filter((candidate) => candidate !== '' && !candidate.startsWith('#'))) {
      const name = line.split(/[{ ]/, 1)[0]!;
      const labels = scraped.get(name) ?? new Set<string>();
      for (const [, label] of line.matchAll(/(\w+)="/g)) labels.add(label!);
      scraped.set(name, labels);
    }
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: { targets: { expr: string }[] }[] };
    const alerts = parse(readFileSync(ALERTS, 'utf8')) as { groups: { rules: { expr: string }[] }[] };
    const queries = [...dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr)), ...alerts.groups.flatMap((group) => group.rules.map((rule) => rule.expr))];
    expect(queries.length).toBeGreaterThan(10);
    for (const query of queries) {
      const names = metricNames(query);
      expect(names.length, query).toBeGreaterThan(0);
      for (const name of names) expect([...scraped.keys()], name).toContain(name);
      // Every label a query matches on or aggregates by is one its metrics carry (Prometheus adds job and instance).
      const carried = new Set(['job', 'instance', ...names.flatMap((name) => [...scraped.get(name)!])]);
      const used = [...query.matchAll(/\b(\w+)\s*(?:=~|!~|!=|=)\s*"/g), ...[...query.matchAll(/\bby\s*\(([^)]*)\)/g)].flatMap(([, list]) => list!.split(',').map((label) => [label, label.trim()]))].map(([, label]) => label!);
      for (const label of used) expect(carried, `${label} in ${query}`).toContain(label);
    }
    const checked = spawnSync(PROMTOOL, ['check', 'rules', ALERTS.pathname], { encoding: 'utf8' });
    expect({ status: checked.status, stderr: checked.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('are off unless GATEHOUSE_METRICS_PORT is set, and then beside the API on its interface', () => {
    const metrics = (env: Record<string, string>) => envConfig(readEnvironment(env), 'postgres://unused', server.secretKey).metrics;
    expect(metrics({})).toBeUndefined();
    expect(metrics({ GATEHOUSE_METRICS_PORT: '' })).toBeUndefined();
    expect(metrics({ GATEHOUSE_METRICS_PORT: '9464', HOST: '10.0.0.5' })).toEqual({ port: 9464, host: '10.0.0.5' });
    expect(() => metrics({ GATEHOUSE_METRICS_PORT: 'metrics' })).toThrow(ConfigError);
    expect(() => metrics({ GATEHOUSE_METRICS_PORT: '70000' })).toThrow(/GATEHOUSE_METRICS_PORT must be a port number/);
  });
});
