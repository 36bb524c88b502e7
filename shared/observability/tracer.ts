import type { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * X-Ray tracing of the AWS SDK clients (functions/composition/composition-context.ts captures each
 * pooled client once), where tracing is on: inside Lambda unless POWERTOOLS_TRACE_ENABLED=false
 * (AppConfig.tracingEnabled).
 *
 * The tracer module is loaded only then. Loading it loads the X-Ray SDK, whose automatic mode
 * (cls-hooked) installs a process-wide async hook with a destroy callback: measured on this
 * project's machine, 2 million awaited promises took 0.24 s without it and 5.9 s with it. Locally,
 * in tests and with tracing off nothing should pay that.
 *
 * Outbound HTTP(S) is not patched: the Graph API and customers' webhook URLs would otherwise
 * receive our X-Amzn-Trace-Id header, and the SSRF-safe client keeps its own agent.
 */
let tracer: Tracer | undefined;

export function tracedClient<T>(client: T, tracingEnabled: boolean): T {
  if (!tracingEnabled) return client;
  // A plain require, so the bundle keeps the module but runs it only here (esbuild wraps CommonJS lazily).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  tracer ??= new (require('@aws-lambda-powertools/tracer') as typeof import('@aws-lambda-powertools/tracer')).Tracer({
    serviceName: 'whatsapp-broadcast-platform',
    captureHTTPsRequests: false,
  });
  return tracer.captureAWSv3Client(client);
}
