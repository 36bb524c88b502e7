import { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * X-Ray tracing of the AWS SDK clients (functions/composition/composition-context.ts captures each
 * pooled client once). Powertools enables it only inside Lambda (AWS_EXECUTION_ENV set) and unless
 * POWERTOOLS_TRACE_ENABLED=false: locally and in tests every capture is a no-op, no X-Ray needed.
 *
 * Outbound HTTP(S) is not patched: the Graph API and customers' webhook URLs would otherwise
 * receive our X-Amzn-Trace-Id header, and the SSRF-safe client keeps its own agent.
 */
export const tracer = new Tracer({ serviceName: 'whatsapp-broadcast-platform', captureHTTPsRequests: false });
