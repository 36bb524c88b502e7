/**
 * The operator's rate card: what one delivered template message costs, per country calling code
 * and Meta pricing category, in one currency (docs/BROADCAST.md "Cost per campaign"). The values
 * are the operator's (examples/rate-card.json holds examples); no price of Meta's is written in
 * code. Prices are decimal strings, held as integer micro-units so sums never drift.
 */
import * as v from 'valibot';
import { issueMessages } from '../http/validation';
import { formatMicros, parseDecimalToMicros } from '../tenancy/money';
import { InvalidRateCardError } from './errors';

/** The default row: a calling code the card does not list is priced by it, when it is given. */
export const ANY_COUNTRY = '*';

const PRICE = /^\d{1,9}(?:\.\d{1,6})?$/;

/** The card as an operator writes it (the file of `set-rate-card`, and as stored). */
export const rateCardSchema = v.object({
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code (e.g. USD)')),
  rates: v.pipe(
    v.record(
      v.pipe(v.string(), v.regex(/^(?:\*|[1-9]\d{0,3})$/, 'keys must be country calling codes of 1 to 4 digits, or * for every other country')),
      v.record(
        v.pipe(v.string(), v.regex(/^[a-z][a-z_]{0,63}$/, 'keys must be Meta pricing categories in lower case (marketing, utility, authentication, …)')),
        v.pipe(v.string(), v.regex(PRICE, 'must be a decimal string with at most 6 fractional digits (e.g. "0.0529")')),
      ),
    ),
    v.check((rates) => Object.keys(rates).length > 0, 'must list at least one country calling code or *'),
  ),
});

export type RateCardInput = v.InferOutput<typeof rateCardSchema>;

/** A parsed card: each price in micro-units of `currency`. */
export interface RateCard {
  currency: string;
  rates: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/**
 * Checks and parses a card (InvalidRateCardError naming the field and the rule).
 *
 * @example
 * parseRateCard({ currency: 'USD', rates: { '44': { marketing: '0.0529' } } }).rates['44'].marketing; // 52900
 */
export function parseRateCard(input: unknown): RateCard {
  const result = v.safeParse(rateCardSchema, input);
  if (!result.success) throw new InvalidRateCardError(`rate card ${issueMessages(result.issues, 'card')[0]}`);
  const rates: Record<string, Record<string, number>> = {};
  for (const [code, prices] of Object.entries(result.output.rates)) {
    rates[code] = Object.fromEntries(Object.entries(prices).map(([category, price]) => [category, parseDecimalToMicros(price, `rates.${code}.${category}`)]));
  }
  return { currency: result.output.currency, rates };
}

/**
 * The price of one message of `category` to a recipient of calling code `callingCode` (its row,
 * else the `*` row; for `service`, without a `service` price in either, the `utility` price the same
 * way); undefined when the card prices none.
 *
 * @example
 * rateOf(card, '44', 'marketing'); // 52900
 */
export function rateOf(card: RateCard, callingCode: string | undefined, category: string): number | undefined {
  const listed = (name: string) => (callingCode === undefined ? undefined : card.rates[callingCode]?.[name]) ?? card.rates[ANY_COUNTRY]?.[name];
  const fallback = PRICED_AS[category];
  return listed(category) ?? (fallback === undefined ? undefined : listed(fallback));
}

/**
 * Categories Meta prices at another category's rate when the card has no price of their own: service
 * (free-form) messages beyond the free tier cost the market's utility rate (since 2026-10-01,
 * ../shared/meta/platform-changes-2026-h2.md row 1). A card's own `service` price wins (its row, else `*`).
 */
const PRICED_AS: Readonly<Record<string, string>> = { service: 'utility' };

/** A running cost: count and micro-units per category, and the recipients no row prices. */
export class CostTally {
  private readonly byCategory = new Map<string, { count: number; micros: number }>();
  private priced = 0;
  private unpriced = 0;

  constructor(private readonly card: RateCard) {}

  /** Adds `count` messages of `category` to a recipient of `callingCode`. */
  add(callingCode: string | undefined, category: string, count = 1): void {
    const rate = rateOf(this.card, callingCode, category);
    if (rate === undefined) {
      this.unpriced += count;
      return;
    }
    this.priced += count;
    const entry = this.byCategory.get(category) ?? { count: 0, micros: 0 };
    entry.count += count;
    entry.micros += rate * count;
    this.byCategory.set(category, entry);
  }

  /**
   * The totals as answers show them: decimal strings.
   *
   * @example
   * const tally = new CostTally(card); tally.add('44', 'marketing', 2);
   * tally.totals(); // { currency: 'USD', amount: '0.1058', priced: 2, unpriced: 0, byCategory: { marketing: { count: 2, amount: '0.1058' } } }
   */
  totals(): CostTotals {
    let micros = 0;
    const byCategory: CostTotals['byCategory'] = {};
    for (const [category, entry] of [...this.byCategory].sort(([left], [right]) => left.localeCompare(right))) {
      micros += entry.micros;
      byCategory[category] = { count: entry.count, amount: formatMicros(entry.micros) };
    }
    return { currency: this.card.currency, amount: formatMicros(micros), priced: this.priced, unpriced: this.unpriced, byCategory };
  }
}

export interface CostTotals {
  currency: string;
  /** Decimal string, e.g. "52.90". */
  amount: string;
  /** Messages a row of the card priced. */
  priced: number;
  /** Messages no row priced (their calling code and `*` lack the category): not in `amount`. */
  unpriced: number;
  byCategory: Record<string, { count: number; amount: string }>;
}

/** The ports that give the card in force for an organization (its own, else the platform's). */
export interface RateCardSource {
  rateCardOf(organizationId: string): Promise<RateCard | undefined>;
}
