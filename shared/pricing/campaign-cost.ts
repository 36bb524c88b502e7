/**
 * A campaign's cost once Meta's pricing arrived with its status webhooks (docs/BROADCAST.md "Cost
 * per campaign"): each billable recipient once, under its latest pricing category (the tally code,
 * shared/delivery/message-pricing.ts), at the rate card's price for its calling code.
 */
import { splitPricedCode } from '../delivery/message-pricing';
import { formatMicros } from '../tenancy/money';
import { callingCodeOf } from '../recipients/calling-code';
import { CostTally, rateOf, type RateCard } from './rate-card';

/** The status summary's `cost`. */
export interface CampaignCost {
  currency: string;
  /** Billable recipients the card priced. */
  billed: number;
  /** Decimal string in `currency`. */
  amount: string;
  byCategory: Record<string, { billed: number; amount: string }>;
  /** Billable recipients no row of the card prices (their calling code and `*` lack the category); present when any. */
  unpriced?: number;
  /** `amount` per recipient who replied (docs/OUTCOMES.md "Where it shows"); absent while nobody replied. */
  perReply?: string;
  /** `amount` per recipient who clicked a tracked link; absent while nobody clicked. */
  perClick?: string;
}

/**
 * The cost of the billable recipients among a job's tally codes; undefined while none is billable.
 * A code written before codes carried the calling code is priced by the card's `*` row.
 *
 * @example
 * campaignCostOf(card, [[0, '3D~3marketing~1~44'], [1, '1S']]); // { currency: 'USD', billed: 1, amount: '0.0529', byCategory: { marketing: { billed: 1, amount: '0.0529' } } }
 */
export function campaignCostOf(card: RateCard, codes: ReadonlyArray<readonly [number, string]>): CampaignCost | undefined {
  const tally = new CostTally(card);
  let billable = 0;
  for (const [, code] of codes) {
    const { pricing } = splitPricedCode(code);
    if (!pricing?.billable) continue;
    billable += 1;
    tally.add(pricing.callingCode, pricing.category);
  }
  if (billable === 0) return undefined;
  const totals = tally.totals();
  const byCategory = Object.fromEntries(Object.entries(totals.byCategory).map(([category, { count, amount }]) => [category, { billed: count, amount }]));
  return { currency: totals.currency, billed: totals.priced, amount: totals.amount, byCategory, ...(totals.unpriced > 0 && { unpriced: totals.unpriced }) };
}

/** What a recipients-list row says of its recipient and Meta's pricing (list-recipients.ts RecipientRow). */
interface PricedRow {
  countryCode: string;
  toPhoneNumber: string;
  userId?: string;
  pricing?: { category: string; billable: boolean };
}

/**
 * What one billed recipient cost at the card (the recipients list's `cost`); undefined when Meta did
 * not mark it billable or no row prices it.
 *
 * @example
 * recipientCostOf(card, { countryCode: '44', toPhoneNumber: '7700900001', pricing: { category: 'marketing', billable: true } }); // { currency: 'USD', amount: '0.0529' }
 */
export function recipientCostOf(card: RateCard, row: PricedRow): { currency: string; amount: string } | undefined {
  if (!row.pricing?.billable) return undefined;
  // A row of a job that kept no list has its whole number in toPhoneNumber and no countryCode.
  const key = row.userId ?? (row.countryCode ? row.countryCode : row.toPhoneNumber);
  const callingCode = row.userId !== undefined || !row.countryCode ? callingCodeOf(key) : row.countryCode;
  const rate = rateOf(card, callingCode, row.pricing.category);
  return rate === undefined ? undefined : { currency: card.currency, amount: formatMicros(rate) };
}
