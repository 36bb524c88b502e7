/**
 * API Gateway's admission before the integration: for methods that require an API key, the
 * `x-api-key` must be an enabled key of the plan and a token bucket per (key, method) admits the
 * request, as usage plans do; then a method with a stage method-level throttle of its own
 * (runtime-contract/route-guards.ts) has one token bucket for all its callers together, as a stage's
 * method settings do. Either bucket empty answers THROTTLED.
 */
import type http from 'node:http';
import type { CompiledRoute } from './route-table';

/** What the gateway does with a request: pass it on (with the key it carried, if any) or answer a gateway response. */
export type Admission = { admitted: true; apiKey: string | null } | { admitted: false; response: 'API_KEY' | 'THROTTLED' };

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class UsagePlanGate {
  private readonly buckets = new Map<string, Bucket>();

  /**
   * @param isApiKeyEnabled API Gateway's key store: is this value an enabled key of the plan?
   * @param now Clock (epoch ms) the buckets refill by.
   */
  constructor(
    private readonly isApiKeyEnabled: (apiKey: string) => Promise<boolean>,
    private readonly now: () => number,
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
    let apiKey: string | null = null;
    if (compiled.requiresApiKey) {
      const header = req.headers['x-api-key'];
      const candidate = Array.isArray(header) ? header[0] : header;
      if (!candidate || !(await this.enabled(candidate))) return { admitted: false, response: 'API_KEY' };
      if (compiled.throttle && !this.takeToken(`key\n${candidate}\n${method}`, compiled.throttle)) return { admitted: false, response: 'THROTTLED' };
      apiKey = candidate;
    }
    if (compiled.methodThrottle && !this.takeToken(`method\n${method}`, compiled.methodThrottle)) return { admitted: false, response: 'THROTTLED' };
    return { admitted: true, apiKey };
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
