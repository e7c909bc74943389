type Env = Readonly<Record<string, string | undefined>>;

/**
 * Whether the standard OpenTelemetry variables ask for traces: an exporter named in
 * `OTEL_TRACES_EXPORTER` (other than `none`), or an OTLP endpoint, and `OTEL_SDK_DISABLED` not true.
 */
export function tracesConfigured(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter) return exporter !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * Starts the OpenTelemetry Node SDK when the environment configures traces, and returns what
 * flushes and stops it; null otherwise. The SDK reads every other `OTEL_*` variable itself
 * (exporter protocol, headers, sampler, resource attributes). It is loaded only when used: a
 * server without tracing never imports it.
 */
export async function startTracing(env: Env = process.env): Promise<(() => Promise<void>) | null> {
  if (!tracesConfigured(env)) return null;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({ serviceName: env.OTEL_SERVICE_NAME?.trim() || 'gatehouse', instrumentations: [] });
  sdk.start();
  return () => sdk.shutdown();
}
