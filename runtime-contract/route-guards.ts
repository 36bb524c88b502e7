/**
 * Guards of the routes no usage plan meters: the unauthenticated ones (health, generate-key, the
 * API reference), the earlier sends (keyed, but the key is checked in the function, not at the
 * gateway) and Meta's webhooks (signed, checked in the function). API Gateway's stage throttle is a
 * per-method default: without settings of their own these methods would each get the 200 requests/s
 * every keyed tenant's method gets, so a flood of them would spend the account's regional request
 * budget and Lambda concurrency that the keyed tenants need, and Meta's busiest senders would be
 * held to the same 200/s. Each guard gives its routes:
 *
 * - `methodThrottle`: a stage method-level throttle (every caller of the method together), set on
 *   the stage by the CDK app (lib/constructs/surface-api.ts) and enforced by the local gateway
 *   (local/gateway/usage-plan.ts) from this same data, so local and AWS agree;
 * - `perIp`: a WAF rate-based rule per source IP scoped to the routes' path and method
 *   (lib/constructs/api-firewall.ts); the limit is the default of `-c waf<GuardName>RateLimit=`.
 *   WAF attaches to REST API stages only: on a surface an HTTP API serves (`frontDoor`, Meta's
 *   webhooks) the method throttle becomes the HTTP API's route throttle and `perIp` applies only
 *   if the surface goes back to a REST API (docs/OPERATIONS.md "Front doors").
 *
 * Pure data, no imports: docs/OPERATIONS.md "Throttling" and "WAF" explain each number.
 */

export interface MethodThrottle {
  /** Steady requests per second of the method, all callers together. */
  rateLimit: number;
  /** Token bucket size: requests the method takes at once. */
  burstLimit: number;
}

export interface RouteGuard {
  methodThrottle: MethodThrottle;
  /**
   * WAF rate-based rule per source IP on the guarded routes (WAF's windows: 60, 120, 300 or 600 s;
   * its smallest limit is 10). Absent: the surface's general per-IP rule covers the routes.
   */
  perIp?: { limit: number; windowSeconds: 60 | 120 | 300 | 600 };
  /**
   * Refused requests per source address the function takes before it refuses that address
   * unheard for the rest of the window (a route WAF cannot guard: Meta's webhooks on an HTTP API;
   * shared/meta-app/webhook-source-guard.ts, docs/OPERATIONS.md "Front doors").
   */
  perSourceRefusals?: { limit: number; windowSeconds: number };
}

/**
 * What the Meta webhook endpoint is sized for. Meta's guidance: a webhook endpoint should take
 * about 3x the outbound rate (sent, delivered and read statuses) plus 1x the inbound rate. One busy
 * number at Meta's highest throughput tier sends 1,000 messages/s; inbound is counted on top at the
 * same rate (Meta's per-number limit counts both together, so this is the ceiling for one number
 * and leaves room for the other numbers of the platform).
 */
export const metaWebhookSizing = {
  /** Meta's upgraded per-number throughput (messages/s); the default tier is 80. */
  outgoingPeakPerSecond: 1_000,
  /** Status webhooks per outgoing message: sent, delivered, read. */
  statusesPerMessage: 3,
  inboundPerSecond: 1_000,
} as const;

/** API Gateway's default account-level burst per region: a method's bucket larger than this never fills. */
export const accountBurstLimit = 5_000;

const metaWebhookRate = metaWebhookSizing.outgoingPeakPerSecond * metaWebhookSizing.statusesPerMessage + metaWebhookSizing.inboundPerSecond;

export const routeGuards = {
  /** Monitors poll it every few seconds; 20/s for all callers together is far above any monitor. */
  health: { methodThrottle: { rateLimit: 20, burstLimit: 40 }, perIp: { limit: 60, windowSeconds: 60 } },
  /**
   * The contract allows 5 keys per minute per IP (exact, in the application); 5/s for every caller
   * together is 300 new keys a minute platform-wide. WAF's smallest limit (10 per minute) is above
   * the contract's, so the application's exact 429 answers first.
   */
  'key-generation': { methodThrottle: { rateLimit: 5, burstLimit: 10 }, perIp: { limit: 10, windowSeconds: 60 } },
  /**
   * 60 per minute per key in the application (1/s); 50/s per route for all tenants together. Per
   * IP: 3,000 per 5 minutes, ten keys at their full rate behind one address.
   */
  'earlier-send': { methodThrottle: { rateLimit: 50, burstLimit: 100 }, perIp: { limit: 3_000, windowSeconds: 300 } },
  /** Meta's signed batches: sized by `metaWebhookSizing` (4,000/s), one Meta address may carry all of it. */
  'meta-webhook': {
    methodThrottle: { rateLimit: metaWebhookRate, burstLimit: accountBurstLimit },
    perIp: { limit: metaWebhookRate * 300, windowSeconds: 300 },
    // Meta signs every POST, so its addresses never reach this; a forger's does after 10 refusals.
    perSourceRefusals: { limit: 10, windowSeconds: 60 },
  },
  /** The subscription handshake: once per (re)configuration in Meta's app dashboard; strict, it carries the verify token. */
  'meta-verification': { methodThrottle: { rateLimit: 5, burstLimit: 10 }, perIp: { limit: 10, windowSeconds: 60 } },
  /**
   * The API reference: a page, its document and two renderer files per visit. No WAF rule of its
   * own: its paths (`/`, `/assets/{file}`) cannot be told from other surfaces' by their ending, so
   * the general per-IP rule covers it.
   */
  docs: { methodThrottle: { rateLimit: 20, burstLimit: 40 } },
  /**
   * The campaign console's page and its four files per visit (docs/CONSOLE.md); its API calls are the
   * keyed broadcast routes, metered by the usage plan. The general per-IP rule covers it, as the docs.
   */
  console: { methodThrottle: { rateLimit: 20, burstLimit: 40 } },
  /**
   * Tracked links' redirect (docs/OUTCOMES.md "Tracked links"): people tapping a campaign's button,
   * many at once right after a send; 500/s for all together. Per IP: 600 per 5 minutes, about two a
   * second from one address (a carrier's NAT carries many people; a scanner far more).
   */
  'click-redirect': { methodThrottle: { rateLimit: 500, burstLimit: 1_000 }, perIp: { limit: 600, windowSeconds: 300 } },
} as const satisfies Record<string, RouteGuard>;

export type RouteGuardName = keyof typeof routeGuards;
