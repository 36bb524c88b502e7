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
 * Bundled, the tracer is not in the function's bundle (`__SDK_TRACER_MODULE__`, defined by
 * lib/constructs/side-packages.ts): a function that traces its SDK calls gets it
 * as a file of its own beside the bundle (`SDK_TRACER_FILE`, built from sdk-tracer-module.ts) and
 * requires it only when tracing is on, so a cold start with tracing off neither reads nor parses
 * it; a function whose definition turns SDK tracing off (`tracesSdkCalls: false`) has no such file
 * and the loader below is dead code. Unbundled (tsx, jest) the name is undefined and the package is
 * required as usual.
 *
 * Outbound HTTP(S) is not patched: the Graph API and customers' webhook URLs would otherwise
 * receive our X-Amzn-Trace-Id header, and the SSRF-safe client keeps its own agent.
 */

/** Replaced by esbuild's `define` in bundles: the tracer file's path beside the bundle, or false (no SDK tracing). */
declare const __SDK_TRACER_MODULE__: string | false | undefined;

/** The esbuild `define` key naming where a bundle finds the tracer (`{ [SDK_TRACER_MODULE]: '"./sdk-tracer.cjs"' }`). */
export const SDK_TRACER_MODULE = '__SDK_TRACER_MODULE__';

/** The tracer's file beside a bundle; the bundle's `require` (createRequire of the bundle's URL) resolves it there. */
export const SDK_TRACER_FILE = './sdk-tracer.cjs';

type TracerModule = typeof import('./sdk-tracer-module');

// Plain requires: the module is evaluated only on the first traced client, never where tracing is off.
/* eslint-disable @typescript-eslint/no-require-imports */
const loadTracerModule: (() => TracerModule) | undefined =
  typeof __SDK_TRACER_MODULE__ === 'undefined'
    ? () => require('@aws-lambda-powertools/tracer') as TracerModule
    : __SDK_TRACER_MODULE__
      ? () => require(__SDK_TRACER_MODULE__ as string) as TracerModule
      : undefined;
/* eslint-enable @typescript-eslint/no-require-imports */

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
