/**
 * Meta's messaging limit of a sender's number, read from the Graph API
 * (`GET /{phone-number-id}?fields=whatsapp_business_manager_messaging_limit`) and kept in memory
 * per phone number id for a few minutes: tiers change rarely (they only move up, at most a few
 * times a month) and every broadcast accept needs one, so a cold read per process and TTL is
 * enough. A raised tier is therefore seen at most TTL later (docs/BROADCAST.md "Messaging limits").
 */
import { ExpiringReads } from '../caching/expiring-reads';
import { logger } from '../observability/logger';
import type { CloudApiClient } from '../sending/ports';
import type { Clock, MessagingTier, MessagingTiers, SenderAccount } from './ports';

export const MESSAGING_TIER_CACHE_TTL_MS = 5 * 60_000;

/** Unique recipients per moving 24 h; TIER_50 and TIER_1K are the older per-number tiers, still answered for some numbers. */
const LIMITS: Readonly<Record<string, number | undefined>> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1_000,
  TIER_2K: 2_000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: undefined,
};

/** The limit of a tier value; an unknown or missing value is taken as unlimited (and logged), so a new Meta value never blocks sending. */
export function messagingTierOf(value: string | undefined): MessagingTier {
  if (value !== undefined && Object.hasOwn(LIMITS, value)) {
    const limit = LIMITS[value];
    return limit === undefined ? { tier: value } : { tier: value, limit };
  }
  logger.warn('Unknown messaging limit tier; treated as unlimited', { messagingLimitTier: value ?? null });
  return { tier: value ?? 'UNKNOWN' };
}

export class CachedMessagingTiers implements MessagingTiers {
  private readonly reads: ExpiringReads<MessagingTier>;

  constructor(
    private readonly upstream: Pick<CloudApiClient, 'messagingLimitOf'>,
    private readonly clock: Clock,
    ttlMs = MESSAGING_TIER_CACHE_TTL_MS,
  ) {
    this.reads = new ExpiringReads(ttlMs);
  }

  tierOf(sender: Pick<SenderAccount, 'phoneNumberId' | 'accessToken'>): Promise<MessagingTier> {
    // A failed read is not kept (ExpiringReads): the next accept reads again.
    return this.reads.read(sender.phoneNumberId, this.clock.now().getTime(), () =>
      this.upstream.messagingLimitOf(sender.phoneNumberId, { accessToken: sender.accessToken }).then(messagingTierOf),
    );
  }
}
