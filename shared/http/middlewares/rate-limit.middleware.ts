import { rateLimitClasses, v1PlanLimits } from '../../../runtime-contract/route-manifest';
import { RateLimitExceededError } from '../../rate-limiting/errors';
import { hasDigitsWithin, phoneDigitBounds } from '../../recipients/phone-number';
import type { HttpRequest } from '../http-operation';
import { stateOf, type PipelineMiddleware } from './pipeline-request';

/**
 * A sender or phone number as a bucket scope only when it could be one (E.164: at most 15 digits).
 * Anything else shares the key's "no sender" bucket: it runs before validation, so junk must not
 * reach a DynamoDB key (2 KB keys are refused) nor create one item per distinct value; the
 * request still gets validation's 400 afterwards.
 */
const scopeOf = (value: unknown): string => (hasDigitsWithin(value, phoneDigitBounds.e164) ? value : '');

/**
 * Whom a request counts for: its credential, except keys minted by generate-key, which all count
 * for their sender number. Minting is public, so per-key buckets would multiply a sender's limit by
 * the number of keys anyone minted for it; one bucket per sender keeps the contract's limit.
 */
function subjectOf(caller: HttpRequest['caller']): string {
  if (caller?.scope?.kind === 'earlier-sender') return `minted:${caller.organizationId}:${caller.scope.phoneNumber}`;
  return caller?.credentialId ?? 'anonymous';
}

/** The bucket a request counts in, beyond the key, and its limit; undefined when the route has none. */
export function rateLimitBucket(request: HttpRequest): { bucket: string; limitPerMinute: number } | undefined {
  // A dry run counts in its own read-only class (docs/BROADCAST.md "Dry run"); any other value of the query is a real request's.
  const className = request.route.dryRunRateLimit !== undefined && request.query.dryRun === 'true' ? request.route.dryRunRateLimit : request.route.rateLimit;
  const limitClass = rateLimitClasses[className];
  const caller = request.caller;
  const limitPerMinute =
    className === 'v1-plan'
      ? (v1PlanLimits[(caller?.plan ?? 'starter') as keyof typeof v1PlanLimits] ?? v1PlanLimits.starter)
      : limitClass.perMinute;
  if (limitPerMinute <= 0) return undefined;
  const body = request.body;
  const scopeValue = (() => {
    switch (limitClass.scope) {
      case 'key':
        return '';
      case 'key-and-sender':
        return `#${scopeOf(typeof body === 'object' && body !== null ? (body as Record<string, unknown>).fromPhoneNumber : undefined)}`;
      case 'key-and-phone-number':
        return `#${scopeOf(request.query.phone_number)}`;
      case 'source-ip':
        return request.sourceIp;
    }
  })();
  const subject = limitClass.scope === 'source-ip' ? 'ip' : subjectOf(caller);
  return { bucket: `${className}#${subject}${scopeValue}`, limitPerMinute };
}

/** The contract's per-minute limits, counted per key (and sender or phone number where the class says). */
export const rateLimit = (): PipelineMiddleware => ({
  before: async (request) => {
    const httpRequest = stateOf(request, 'request');
    const limit = rateLimitBucket(httpRequest);
    if (!limit) return;
    const decision = await stateOf(request, 'dependencies').rateLimiter.consume(limit.bucket, limit.limitPerMinute, httpRequest.receivedAt);
    if (!decision.allowed) throw new RateLimitExceededError(decision.retryAfterSeconds, limit.limitPerMinute);
  },
});
