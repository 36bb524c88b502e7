/**
 * Where the rate card in force comes from (docs/BROADCAST.md "Cost per campaign", docs/OPERATIONS.md
 * "Rate card"): one platform-wide card, and optionally an organization's own, which replaces it
 * whole for that organization. Set by the operators' `set-rate-card`; read by the dry run and the
 * status summary, kept a minute per container like the other settings.
 */
import { ExpiringReads } from '../caching/expiring-reads';
import type { Clock } from '../ports/clock';
import { parseRateCard, type RateCard, type RateCardInput, type RateCardSource } from './rate-card';

/** The owner of the platform's card; any other owner is an organization id. */
export const PLATFORM_RATE_CARD = 'PLATFORM';

/** A card as stored: as the operator wrote it, and when. */
export type StoredRateCard = RateCardInput & { updatedAt: string };

export interface RateCardStore {
  storedRateCard(owner: string): Promise<StoredRateCard | undefined>;
  putRateCard(owner: string, card: StoredRateCard): Promise<void>;
}

/** How long a container keeps a card it read: a change reaches every function within it. */
export const RATE_CARD_CACHE_MS = 60_000;

/**
 * Checks a card (InvalidRateCardError naming the field) and stores it for the platform or one organization.
 *
 * @example
 * await setRateCard({ rateCards, clock }, JSON.parse(text)); // { owner: 'PLATFORM', currency: 'USD', countries: 2, updatedAt: '…' }
 */
export async function setRateCard(
  ports: { rateCards: RateCardStore; clock: Clock },
  input: unknown,
  organizationId?: string,
): Promise<{ owner: string; currency: string; countries: number; updatedAt: string }> {
  const card = parseRateCard(input);
  const written = input as RateCardInput;
  const updatedAt = ports.clock.now().toISOString();
  const owner = organizationId ?? PLATFORM_RATE_CARD;
  await ports.rateCards.putRateCard(owner, { currency: written.currency, rates: written.rates, updatedAt });
  return { owner, currency: card.currency, countries: Object.keys(card.rates).length, updatedAt };
}

/** The card in force for an organization: its own, else the platform's; each owner's read kept RATE_CARD_CACHE_MS. */
export class CachedRateCards implements RateCardSource {
  private readonly reads = new ExpiringReads<RateCard | undefined>(RATE_CARD_CACHE_MS, 1_000);

  constructor(
    private readonly store: RateCardStore,
    private readonly clock: Clock,
  ) {}

  async rateCardOf(organizationId: string): Promise<RateCard | undefined> {
    return (await this.cardOf(organizationId)) ?? this.cardOf(PLATFORM_RATE_CARD);
  }

  private cardOf(owner: string): Promise<RateCard | undefined> {
    return this.reads.read(owner, this.clock.now().getTime(), async () => {
      const stored = await this.store.storedRateCard(owner);
      return stored === undefined ? undefined : parseRateCard({ currency: stored.currency, rates: stored.rates });
    });
  }
}
