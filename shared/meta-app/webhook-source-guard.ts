/**
 * Who may be heard at Meta's webhook endpoint, by source address, before any signature work.
 *
 * The endpoint is an API Gateway HTTP API, which AWS WAF cannot be associated with: its route
 * throttle counts every caller together, so nothing in front of the function limits one address
 * (docs/OPERATIONS.md "Front doors"). Two checks here stand for it, both on the request's source
 * address as API Gateway saw it (`requestContext.identity.sourceIp`: the TCP peer, never a header):
 *
 * - **Refusals per source** (always on): an address whose last `limit` requests within the window
 *   were refused (a missing or wrong signature, a body above the cap) is refused unheard, 429 with
 *   the seconds until its oldest refusal leaves the window, without the body being hashed or the
 *   settings read. Meta signs every POST, so its addresses never get there; a forger's does after
 *   `limit` tries. Counted per function environment (in memory, no I/O per request: Meta's few
 *   addresses carry thousands of POSTs a second, which no per-address counter item could take),
 *   so across N warm environments an address gets at most N × `limit` signature checks a window.
 * - **Source ranges** (optional, `META_WEBHOOK_SOURCE_RANGES`): when set, only addresses in those
 *   CIDR ranges are heard; every other is refused 403 first. For operators who keep Meta's
 *   published ranges current (they change; a stale list loses Meta's events): off by default.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { WebhookSourceHeldBackError, WebhookSourceNotAllowedError } from './errors';

export interface WebhookSourceRules {
  /** Refused requests per source within `windowSeconds` before the source is held back. */
  refusals: { limit: number; windowSeconds: number };
  /** CIDR ranges (`157.240.0.0/16`, `2a03:2880::/32`) the endpoint hears; absent or empty: every address. */
  sourceRanges?: readonly string[];
  /** Sources remembered at once; the least recently refused is forgotten first. */
  maxSources?: number;
}

/** The address family of an IP address as `BlockList` names it, or undefined when it is none. */
const familyOf = (address: string): 'ipv4' | 'ipv6' | undefined => (isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined);

/**
 * The CIDR ranges of a comma-separated list as a BlockList; throws naming the first entry that is
 * not one (the setting is checked where it is read: the CDK app at synth, the function at start).
 *
 * @example
 * sourceRangesOf(['157.240.0.0/16', '2a03:2880::/32']).check('157.240.1.1', 'ipv4'); // true
 */
export function sourceRangesOf(ranges: readonly string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const [address = '', prefixText = '', ...rest] = range.split('/');
    const family = familyOf(address);
    const prefix = Number(prefixText);
    const maxPrefix = family === 'ipv4' ? 32 : 128;
    if (!family || rest.length > 0 || !/^\d{1,3}$/.test(prefixText) || prefix > maxPrefix) {
      throw new RangeError(`${range} is not a CIDR range (an IPv4 or IPv6 address, "/", a prefix length)`);
    }
    list.addSubnet(address, prefix, family);
  }
  return list;
}

/**
 * One per function environment.
 *
 * @example
 * const guard = new WebhookSourceGuard({ refusals: { limit: 10, windowSeconds: 60 } });
 * guard.admit('203.0.113.9', now); // throws when the source is held back or outside the ranges
 * guard.recordRefusal('203.0.113.9', now); // after a refused signature
 */
export class WebhookSourceGuard {
  private readonly refusedAt = new Map<string, number[]>();
  private readonly ranges: BlockList | undefined;
  private readonly windowMs: number;
  private readonly maxSources: number;

  constructor(private readonly rules: WebhookSourceRules) {
    this.ranges = rules.sourceRanges && rules.sourceRanges.length > 0 ? sourceRangesOf(rules.sourceRanges) : undefined;
    this.windowMs = rules.refusals.windowSeconds * 1000;
    this.maxSources = rules.maxSources ?? 10_000;
  }

  /** Throws WebhookSourceNotAllowedError (403) or WebhookSourceHeldBackError (429) for a source not to be heard now. */
  admit(source: string, now: Date): void {
    if (this.ranges) {
      const family = familyOf(source);
      if (!family || !this.ranges.check(source, family)) throw new WebhookSourceNotAllowedError();
    }
    const recent = this.recentRefusals(source, now.getTime());
    if (recent.length >= this.rules.refusals.limit) {
      throw new WebhookSourceHeldBackError(Math.max(1, Math.ceil((recent[0]! + this.windowMs - now.getTime()) / 1000)));
    }
  }

  /** Counts a refused request of `source` (a bad signature, an oversized body). */
  recordRefusal(source: string, now: Date): void {
    const recent = this.recentRefusals(source, now.getTime());
    recent.push(now.getTime());
    // Kept no longer than the limit needs, and most recently refused last (the map's order).
    this.refusedAt.delete(source);
    this.refusedAt.set(source, recent.slice(-this.rules.refusals.limit));
    if (this.refusedAt.size > this.maxSources) this.refusedAt.delete(this.refusedAt.keys().next().value!);
  }

  private recentRefusals(source: string, at: number): number[] {
    return (this.refusedAt.get(source) ?? []).filter((refused) => at - refused < this.windowMs);
  }
}
