import { CostTally, parseRateCard, rateOf } from '../../../shared/pricing/rate-card';
import { CachedRateCards, PLATFORM_RATE_CARD, setRateCard, type RateCardStore, type StoredRateCard } from '../../../shared/pricing/rate-cards';
import { callingCodeOf } from '../../../shared/recipients/calling-code';
import { VirtualTime } from '../../support/broadcast-fakes';

class InMemoryRateCardStore implements RateCardStore {
  readonly cards = new Map<string, StoredRateCard>();
  reads = 0;
  async storedRateCard(owner: string) {
    this.reads += 1;
    return this.cards.get(owner);
  }
  async putRateCard(owner: string, card: StoredRateCard) {
    this.cards.set(owner, card);
  }
}

describe('rate card', () => {
  const card = parseRateCard({ currency: 'USD', rates: { '44': { marketing: '0.0529' }, '*': { marketing: '0.06', utility: '0.008' } } });

  it('holds prices as integer micro-units and falls back to the * row', () => {
    expect(rateOf(card, '44', 'marketing')).toBe(52_900);
    expect(rateOf(card, '49', 'marketing')).toBe(60_000);
    expect(rateOf(card, '44', 'utility')).toBe(8_000);
    expect(rateOf(card, '44', 'authentication')).toBeUndefined();
  });

  it('prices service messages at the card’s service price, else its utility price (Meta: the market’s utility rate)', () => {
    const withService = parseRateCard({
      currency: 'USD',
      rates: { '44': { utility: '0.022', service: '0.02' }, '91': { utility: '0.0014' }, '*': { utility: '0.008' } },
    });
    expect(rateOf(withService, '44', 'service')).toBe(20_000);
    expect(rateOf(withService, '91', 'service')).toBe(1_400);
    expect(rateOf(withService, '49', 'service')).toBe(8_000);
    expect(rateOf(card, '44', 'service')).toBe(8_000);
    // Only service falls back: another category without a price stays unpriced.
    expect(rateOf(withService, '44', 'group_service')).toBeUndefined();
  });

  it('sums without float drift', () => {
    const tally = new CostTally(parseRateCard({ currency: 'EUR', rates: { '*': { marketing: '0.1' } } }));
    for (let index = 0; index < 3; index += 1) tally.add('44', 'marketing');
    // 0.1 + 0.1 + 0.1 in floating point is 0.30000000000000004.
    expect(tally.totals()).toEqual({ currency: 'EUR', amount: '0.30', priced: 3, unpriced: 0, byCategory: { marketing: { count: 3, amount: '0.30' } } });
  });

  it('counts what no row prices apart', () => {
    const tally = new CostTally(card);
    tally.add('44', 'marketing', 1000);
    tally.add('44', 'authentication', 2);
    expect(tally.totals()).toMatchObject({ amount: '52.90', priced: 1000, unpriced: 2 });
  });

  it.each([
    [{ currency: 'usd', rates: { '*': {} } }, 'rate card currency must be an ISO 4217 currency code (e.g. USD)'],
    [{ currency: 'USD', rates: { '+44': { marketing: '1' } } }, 'keys must be country calling codes'],
    [{ currency: 'USD', rates: { '44': { marketing: 0.05 } } }, 'rate card rates.44.marketing must be string'],
    [{ currency: 'USD', rates: { '44': { marketing: '0.0000001' } } }, 'at most 6 fractional digits'],
    [{ currency: 'USD', rates: {} }, 'rate card rates must list at least one'],
  ])('refuses %j naming the field', (input, message) => {
    expect(() => parseRateCard(input)).toThrow(expect.objectContaining({ code: 'INVALID_RATE_CARD', message: expect.stringContaining(message) }));
  });
});

describe('callingCodeOf', () => {
  it.each([
    ['447700900001', '44'],
    ['919800000001', '91'],
    ['14155550100', '1'],
    ['971501234567', '971'],
    ['US.13491208655302741918', '1'],
    ['GB.ENT.abc', '44'],
    ['ZZ.1', undefined],
  ])('%s → %s', (key, code) => expect(callingCodeOf(key)).toBe(code));
});

describe('rate cards in force', () => {
  it("uses an organization's own card, else the platform's, each read once a minute", async () => {
    const store = new InMemoryRateCardStore();
    const clock = new VirtualTime('2026-03-01T09:00:00.000Z');
    await setRateCard({ rateCards: store, clock }, { currency: 'USD', rates: { '*': { marketing: '0.05' } } });
    await setRateCard({ rateCards: store, clock }, { currency: 'EUR', rates: { '*': { marketing: '0.04' } } }, 'org_2');
    const source = new CachedRateCards(store, clock);

    expect((await source.rateCardOf('org_1'))?.currency).toBe('USD');
    expect((await source.rateCardOf('org_2'))?.currency).toBe('EUR');
    const reads = store.reads;
    await source.rateCardOf('org_1');
    expect(store.reads).toBe(reads);

    await setRateCard({ rateCards: store, clock }, { currency: 'GBP', rates: { '*': { marketing: '0.03' } } });
    clock.advanceBy(60_001);
    expect((await source.rateCardOf('org_1'))?.currency).toBe('GBP');
    expect(store.cards.get(PLATFORM_RATE_CARD)?.updatedAt).toBe('2026-03-01T09:00:00.000Z');
  });
});
