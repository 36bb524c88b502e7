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
 * A function whose definition turns SDK tracing off (`tracesSdkCalls: false`) is bundled with
 * `SDK_TRACER_BUNDLED` defined as `false` (lib/constructs/service-function.ts `bundlingOf`): the
 * loader below is then dead code and esbuild leaves the tracer and the X-Ray SDK (~70 KiB) out of
 * the bundle. Unbundled (tsx, jest) the name is undefined and the tracer stays loadable.
 *
 * Outbound HTTP(S) is not patched: the Graph API and customers' webhook URLs would otherwise
 * receive our X-Amzn-Trace-Id header, and the SSRF-safe client keeps its own agent.
 */

/** Replaced by esbuild's `define` in bundles of functions without SDK tracing; undefined elsewhere. */
declare const __SDK_TRACER_BUNDLED__: boolean | undefined;

/** The esbuild `define` key that leaves the tracer out of a bundle (`{ [SDK_TRACER_BUNDLED]: 'false' }`). */
export const SDK_TRACER_BUNDLED = '__SDK_TRACER_BUNDLED__';

// A plain require, so a bundle that keeps the module runs it only when tracing is on (esbuild wraps CommonJS lazily).
const loadTracerModule =
  typeof __SDK_TRACER_BUNDLED__ === 'undefined' || __SDK_TRACER_BUNDLED__
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports
      () => require('@aws-lambda-powertools/tracer') as typeof import('@aws-lambda-powertools/tracer')
    : undefined;

let tracer: Tracer | undefined;

/**
 * `client` with X-Ray subsegments for its calls when tracing is on and the tracer is in the bundle;
 * otherwise `client` itself.
 *
 * @example
 * const dynamodb = tracedClient(new DynamoDBClient({ region }), config.tracingEnabled);
 */
export function tracedClient<T>(client: T, tracingEnabled: boolean): T {
  if (!tracingEnabled || !loadTracerModule) return client;
  tracer ??= new (loadTracerModule().Tracer)({
    serviceName: 'whatsapp-broadcast-platform',
    captureHTTPsRequests: false,
  });
  return tracer.captureAWSv3Client(client);
}
