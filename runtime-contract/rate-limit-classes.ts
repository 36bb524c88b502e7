/**
 * The contract's rate-limit classes, by name (the routes of route-manifest.ts name theirs). Pure
 * data of its own module: the HTTP pipeline's rate limit reads it without loading the routes.
 */

/**
 * Rate-limit classes. `perKey` is the per-key ceiling that API Gateway usage plans
 * enforce in AWS (and the local gateway enforces the same way). Limits that depend on a
 * body or query field (per sender) cannot be seen by a usage plan and live in the
 * application; they are declared here too so the contract's numbers sit in one place.
 */
export interface RateLimitClass {
  /** Requests per minute per key that the contract promises (exact, enforced in the application). */
  perMinute: number;
  /** What the limit is counted per, beyond the key. */
  scope: 'key' | 'key-and-sender' | 'key-and-phone-number' | 'source-ip';
  /** Usage-plan throttle for the method (token bucket). Looser than perMinute so clients normally
   * meet the application's exact 429 with Retry-After; the usage plan is the ceiling against abuse. */
  usagePlanThrottle?: { rateLimit: number; burstLimit: number };
}

export const rateLimitClasses = {
  'template-broadcast': {
    perMinute: 10,
    scope: 'key-and-sender',
    usagePlanThrottle: { rateLimit: 2, burstLimit: 20 },
  },
  /**
   * `?dryRun=true` of send-template-broadcast (docs/BROADCAST.md "Dry run"): read-only, so its own
   * bucket, not the broadcast class's. The usage plan cannot see a query value: the route's method
   * throttle (the template-broadcast class's) stays the ceiling of both.
   */
  'broadcast-dry-run': { perMinute: 30, scope: 'key-and-sender' },
  freeform: { perMinute: 20, scope: 'key-and-sender', usagePlanThrottle: { rateLimit: 5, burstLimit: 40 } },
  templates: { perMinute: 20, scope: 'key-and-phone-number', usagePlanThrottle: { rateLimit: 2, burstLimit: 40 } },
  status: { perMinute: 30, scope: 'key', usagePlanThrottle: { rateLimit: 1, burstLimit: 60 } },
  'phone-numbers': { perMinute: 30, scope: 'key', usagePlanThrottle: { rateLimit: 1, burstLimit: 60 } },
  /** The five webhook-endpoint routes together (docs/CUSTOMER-WEBHOOKS.md "Limits"). */
  webhooks: { perMinute: 30, scope: 'key', usagePlanThrottle: { rateLimit: 1, burstLimit: 60 } },
  /**
   * Every /audiences route together (docs/CAMPAIGNS.md "Audiences"): an import of 200,000 members is
   * 20 requests of 10,000, so a minute's bucket holds an import with its reads and retries.
   */
  audiences: { perMinute: 60, scope: 'key', usagePlanThrottle: { rateLimit: 2, burstLimit: 60 } },
  /** `/me` and the `/people` routes together, per key or person (docs/PEOPLE.md "People"). */
  people: { perMinute: 30, scope: 'key', usagePlanThrottle: { rateLimit: 1, burstLimit: 60 } },
  /** Not gateway-keyed (see `unauthorizedAnswer`), so no usage plan can meter it: the application's limit is the one. */
  'earlier-send': { perMinute: 60, scope: 'key' },
  'key-generation': { perMinute: 5, scope: 'source-ip' },
  'organization-admin': { perMinute: 30, scope: 'key' },
  /** GET /audit-log (docs/PEOPLE.md "Audit log"): an admin's or an auditing back end's paging. */
  audit: { perMinute: 30, scope: 'key', usagePlanThrottle: { rateLimit: 1, burstLimit: 60 } },
  /** The three /api-keys routes together, per key or person (docs/PEOPLE.md "API keys"). */
  'api-keys': { perMinute: 30, scope: 'key', usagePlanThrottle: { rateLimit: 1, burstLimit: 60 } },
  /** The three /contact-policy routes together, per key or person (docs/CAMPAIGNS.md "Frequency caps"). */
  'contact-policy': { perMinute: 30, scope: 'key', usagePlanThrottle: { rateLimit: 1, burstLimit: 60 } },
  upstream: { perMinute: 600, scope: 'key' },
  'v1-plan': { perMinute: 0, scope: 'key' },
  none: { perMinute: 0, scope: 'key' },
} as const satisfies Record<string, RateLimitClass>;

export type RateLimitClassName = keyof typeof rateLimitClasses;

/** Requests per minute per v1 API key, by plan (contract: starter 60, professional 300, enterprise 1,000). */
export const v1PlanLimits = { starter: 60, professional: 300, enterprise: 1000 } as const;
export type V1Plan = keyof typeof v1PlanLimits;
