import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracesConfigured } from '../../../server/observability/otel-sdk.js';
import { startDataServer } from '../support/data-server.js';
import type { TestServer } from '../support/test-server.js';
import { tokenClaims } from '../support/token-claims.js';

// The SDK as an operator's OTEL_* variables would start it, exporting into memory instead of a collector.
const exporter = new InMemorySpanExporter();
const sdk = new NodeSDK({ spanProcessors: [new SimpleSpanProcessor({ exporter })], instrumentations: [] });
const POST_ID = 987_654;
const lines: Record<string, unknown>[] = [];
let server: TestServer;

beforeAll(async () => {
  sdk.start();
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  server = await startDataServer({ tracing: true, logger });
  await server.sql(
    `INSERT INTO posts (id, organization_id, title, status) OVERRIDING SYSTEM VALUE SELECT $1, id, 'Traced post', 'published' FROM organizations WHERE slug = 'acme'`,
    [POST_ID],
  );
});

afterAll(async () => {
  await server.close();
  await sdk.shutdown();
});

const attributeText = (span: ReadableSpan) => JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events });

describe('traces', () => {
  it("show a request's HTTP span, its opening, each statement and the policy evaluation, and nothing secret", async () => {
    const email = 'viewer@acme.test';
    const token = await server.login(email);
    // Every statement span is named by its verb, an indented multi-line statement's too.
    const loginStatements = exporter.getFinishedSpans().filter((span) => span.attributes['gatehouse.stage'] === 'statement');
    expect(loginStatements.length).toBeGreaterThan(0);
    for (const span of loginStatements) expect(span.name).toMatch(/^(SELECT|INSERT|UPDATE|DELETE|WITH)$/);
    exporter.reset();
    const response = await server.api.get(`/api/acme/posts/${POST_ID}`, { token, headers: { 'X-Request-Id': 'traced-show-1' } });
    expect(response.status).toBe(200);
    expect(response.headers['x-request-id']).toBe('traced-show-1');

    const spans = exporter.getFinishedSpans();
    const http = spans.find((span) => span.attributes['http.route'] !== undefined)!;
    expect(http.name).toBe('GET /api/:organization/:model/:id');
    expect(http.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.response.status_code': 200, 'gatehouse.request_id': 'traced-show-1', 'gatehouse.route_group': 'tenant' });
    const traceId = http.spanContext().traceId;
    const inTrace = spans.filter((span) => span.spanContext().traceId === traceId);
    const stages = inTrace.map((span) => span.attributes['gatehouse.stage'] ?? span.name);
    expect(stages).toEqual(expect.arrayContaining(['opening', 'statement', 'commit', 'policy']));
    // Everything beneath the request's span hangs under it.
    for (const span of inTrace.filter((candidate) => candidate !== http)) expect(span.parentSpanContext?.spanId).toBe(http.spanContext().spanId);
    const statement = inTrace.find((span) => span.attributes['gatehouse.stage'] === 'statement')!;
    expect(statement.attributes['db.query.text']).toMatch(/^select .*\$1/i);
    expect(statement.attributes['db.response.returned_rows']).toBe(1);
    expect(inTrace.find((span) => span.name === 'policy')!.attributes).toMatchObject({ 'gatehouse.model': 'posts', 'gatehouse.policy.method': 'view', 'gatehouse.decision': 'allowed' });

    // Neither the token, its session, the email nor a statement's parameter value is in any span.
    const secrets = [token, tokenClaims(token).sid!, email, String(POST_ID)];
    for (const span of inTrace) for (const secret of secrets) expect(attributeText(span)).not.toContain(secret);

    const line = lines.find((candidate) => candidate.msg === 'request' && candidate.requestId === 'traced-show-1')!;
    expect(line.traceId).toBe(traceId);
  });

  it('continue the trace a caller sends in traceparent', async () => {
    const token = await server.login('viewer@acme.test');
    exporter.reset();
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    await server.api.get('/api/acme/posts', { token, headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` } });
    const http = exporter.getFinishedSpans().find((span) => span.attributes['http.route'] !== undefined)!;
    expect(http.spanContext().traceId).toBe(callerTrace);
  });

  it('are on only when the OTEL_* variables configure an exporter or an endpoint', () => {
    expect(tracesConfigured({})).toBe(false);
    expect(tracesConfigured({ OTEL_SERVICE_NAME: 'gatehouse' })).toBe(false);
    expect(tracesConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracesConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracesConfigured({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracesConfigured({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
    expect(tracesConfigured({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
  });
});
