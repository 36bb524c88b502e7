/**
 * API Gateway's admission before the integration: for methods that require an API key, the usage
 * identifier key (the `x-api-key`, or the key the request authorizer names for a signed-in person)
 * must be a key of the plan and a token bucket per (key, method) admits the request, as usage plans
 * do; then a method with a stage method-level throttle of its own (runtime-contract/route-guards.ts)
 * has one token bucket for all its callers together, as a stage's method settings do. Either bucket
 * empty answers THROTTLED.
 */
import type http from 'node:http';
import type { AuthorizerResponseKind } from '../../runtime-contract/route-manifest';
import type { LocalRequestAuthorizer } from './request-authorizer';
import type { CompiledRoute } from './route-table';

/** What the gateway does with a request: pass it on (with the key it was metered by, if any) or answer a gateway response. */
export type Admission =
  | { admitted: true; apiKey: string | null; authorizer?: Record<string, string | number | boolean> }
  | { admitted: false; response: 'API_KEY' | 'THROTTLED' | AuthorizerResponseKind };

type UsageKey = { apiKey: string; authorizer?: Record<string, string | number | boolean> } | { refusal: Exclude<Admission, { admitted: true }>['response'] };

const authorizerRefusals = { refused: 'UNAUTHORIZED', denied: 'ACCESS_DENIED', failed: 'AUTHORIZER_FAILURE' } as const;

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class UsagePlanGate {
  private readonly buckets = new Map<string, Bucket>();

  /**
   * @param isApiKeyEnabled API Gateway's key store: is this value an enabled key of the plan?
   * @param now Clock (epoch ms) the buckets refill by.
   * @param authorizer The request authorizer of keyed methods; absent: a missing `x-api-key` is refused as before there was one.
   */
  constructor(
    private readonly isApiKeyEnabled: (apiKey: string) => Promise<boolean>,
    private readonly now: () => number,
    private readonly authorizer?: LocalRequestAuthorizer,
  ) {}

  /**
   * apiKeyRequired, then the usage plan's throttle of the key and method, then the method's own throttle.
   *
   * @example
   * const admission = await gate.admit(req, compiled);
   * if (!admission.admitted) sendGatewayResponse(res, surface, admission.response, context);
   */
  async admit(req: http.IncomingMessage, compiled: CompiledRoute): Promise<Admission> {
    const method = `${req.method ?? 'GET'} ${compiled.resource.resource}`;
    let usage: Extract<UsageKey, { apiKey: string }> | undefined;
    if (compiled.requiresApiKey) {
      const found = await this.usageKeyOf(req, compiled);
      if ('refusal' in found) return { admitted: false, response: found.refusal };
      if (compiled.throttle && !this.takeToken(`key\n${found.apiKey}\n${method}`, compiled.throttle)) return { admitted: false, response: 'THROTTLED' };
      usage = found;
    }
    if (compiled.methodThrottle && !this.takeToken(`method\n${method}`, compiled.methodThrottle)) return { admitted: false, response: 'THROTTLED' };
    return { admitted: true, apiKey: usage?.apiKey ?? null, ...(usage?.authorizer ? { authorizer: usage.authorizer } : {}) };
  }

  /** The key a keyed method's request is metered by (`apiKeySource: AUTHORIZER` on AWS), or its refusal. */
  private async usageKeyOf(req: http.IncomingMessage, compiled: CompiledRoute): Promise<UsageKey> {
    const header = req.headers['x-api-key'];
    const candidate = Array.isArray(header) ? header[0] : header;
    if (candidate || !this.authorizer) {
      // An `x-api-key` is the authorizer's answer already: it passes the header on as the usage
      // identifier key without reading anything (functions/request-authorizer), so the gateway does
      // not invoke it and checks the key against the plan's keys exactly as before.
      return candidate && (await this.enabled(candidate)) ? { apiKey: candidate } : { refusal: 'API_KEY' };
    }
    const answer = await this.authorizer.authorize(req, compiled);
    if (answer.kind !== 'allowed') return { refusal: authorizerRefusals[answer.kind] };
    // A person's usage key is not in the broadcast key store (it authenticates nothing): the gateway
    // meters by it because the authorizer vouched for it, after checking the person's token and
    // membership. On AWS the usage plan also requires it to be one of its keys (the invitation added it).
    return { apiKey: answer.usageIdentifierKey, authorizer: answer.authorizer };
  }

  private async enabled(apiKey: string): Promise<boolean> {
    try {
      return await this.isApiKeyEnabled(apiKey);
    } catch {
      // API Gateway's key store does not fail with ours: when the lookup cannot answer, the
      // Lambda authenticates the key itself and reports the outage (503), as it would in AWS.
      return true;
    }
  }

  /** A token bucket per name: `burstLimit` tokens at most, refilled at `rateLimit` per second. */
  private takeToken(key: string, limit: { rateLimit: number; burstLimit: number }): boolean {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: limit.burstLimit, updatedAt: now };
      this.buckets.set(key, bucket);
    } else if (now > bucket.updatedAt) {
      bucket.tokens = Math.min(limit.burstLimit, bucket.tokens + ((now - bucket.updatedAt) / 1000) * limit.rateLimit);
      bucket.updatedAt = now;
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
