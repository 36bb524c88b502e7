import { rateLimitClasses, v1PlanLimits, type RateLimitClass } from '../../../runtime-contract/rate-limit-classes';
import { RateLimitExceededError } from '../../rate-limiting/errors';
import { hasDigitsWithin, phoneDigitBounds } from '../../recipients/phone-number';
import type { HttpPipelineDependencies, HttpRequest } from '../http-operation';
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

/** The route's class for this request: a dry run counts in its own read-only class (docs/BROADCAST.md "Dry run"); any other value of the query is a real request's. */
const classNameOf = (request: HttpRequest) =>
  request.route.dryRunRateLimit !== undefined && request.query.dryRun === 'true' ? request.route.dryRunRateLimit : request.route.rateLimit;

const isSenderScoped = (scope: RateLimitClass['scope']): boolean => scope === 'key-and-sender' || scope === 'key-and-phone-number';

/**
 * The number a request names for a per-sender bucket (the body's `fromPhoneNumber` or the query's
 * `phone_number`, by the class), when it is a plausible one; '' otherwise. Not yet a bucket: the
 * number must first prove to be the caller's (`rateLimit` below).
 */
export function senderNamedBy(request: HttpRequest): string {
  const scope: RateLimitClass['scope'] = rateLimitClasses[classNameOf(request)].scope;
  if (scope === 'key-and-phone-number') return scopeOf(request.query.phone_number);
  if (scope !== 'key-and-sender') return '';
  const body = request.body;
  return scopeOf(typeof body === 'object' && body !== null ? (body as Record<string, unknown>).fromPhoneNumber : undefined);
}

/**
 * The bucket a request counts in, beyond the key, and its limit; undefined when the route has none.
 * `ownSender` is the request's sender once proved a number of the caller (`senderNamedBy`, then
 * `isCallersNumber`); '' counts the request in the key's shared bucket.
 */
export function rateLimitBucket(request: HttpRequest, ownSender: string): { bucket: string; limitPerMinute: number } | undefined {
  const className = classNameOf(request);
  const limitClass: RateLimitClass = rateLimitClasses[className];
  const caller = request.caller;
  const limitPerMinute =
    className === 'v1-plan' ? (v1PlanLimits[(caller?.plan ?? 'starter') as keyof typeof v1PlanLimits] ?? v1PlanLimits.starter) : limitClass.perMinute;
  if (limitPerMinute <= 0) return undefined;
  if (limitClass.scope === 'source-ip') return { bucket: `${className}#ip${request.sourceIp}`, limitPerMinute };
  const scopeValue = isSenderScoped(limitClass.scope) ? `#${ownSender}` : '';
  return { bucket: `${className}#${subjectOf(caller)}${scopeValue}`, limitPerMinute };
}

/**
 * Whether a sender may have a bucket of its own: a number of the caller's organization, and the
 * key's own number when the key is bound to one. Anything else (a made-up number, another
 * organization's) counts in the key's shared bucket, so rotating numbers never yields fresh buckets;
 * the operation then refuses the sender as before. A key bound to a number needs no read.
 */
async function isCallersNumber(dependencies: HttpPipelineDependencies, caller: HttpRequest['caller'], digits: string): Promise<boolean> {
  if (caller === undefined) return false;
  const bound = caller.scope?.kind === 'sender' || caller.scope?.kind === 'earlier-sender' ? caller.scope.phoneNumber : undefined;
  if (bound !== undefined) return bound === digits;
  if (!dependencies.senderNumbers) throw new Error('HTTP pipeline: a route counted per sender needs the senderNumbers dependency');
  return dependencies.senderNumbers.isOrganizationNumber(caller.organizationId, digits);
}

/** The contract's per-minute limits, counted per key (and sender or phone number where the class says). */
export const rateLimit = (): PipelineMiddleware => ({
  before: async (request) => {
    const httpRequest = stateOf(request, 'request');
    // A route without a limit needs no dependencies (a group of such routes has none: health, docs, console).
    if (!rateLimitBucket(httpRequest, '')) return;
    const dependencies = stateOf(request, 'dependencies');
    const named = senderNamedBy(httpRequest);
    const ownSender = named !== '' && (await isCallersNumber(dependencies, httpRequest.caller, named)) ? named : '';
    const limit = rateLimitBucket(httpRequest, ownSender);
    if (!limit) return;
    const decision = await dependencies.rateLimiter.consume(limit.bucket, limit.limitPerMinute, httpRequest.receivedAt);
    if (!decision.allowed) throw new RateLimitExceededError(decision.retryAfterSeconds, limit.limitPerMinute);
  },
});
