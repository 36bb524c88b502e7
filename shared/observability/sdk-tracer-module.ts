/**
 * The entry of `sdk-tracer.cjs`, the file bundled beside each function that traces its SDK calls
 * (lib/constructs/service-function.ts `bundlingOf`): the Powertools Tracer and the X-Ray SDK
 * (~133 KiB) out of the function's own bundle, loaded by shared/observability/tracer.ts only where
 * tracing is on.
 */
export { Tracer } from '@aws-lambda-powertools/tracer';
