/**
 * Meta's `pricing` object of status webhooks (../shared/meta/template-components.md §10): on `sent`
 * and on one of `delivered`/`read`. Kept per recipient as one fact per stage (first seen, like the
 * timestamps), so applying events stays idempotent and order-independent; the recipient's pricing
 * is the one of its highest stage that carried one (read > delivered > sent): "the latest by status
 * precedence", never "the latest to arrive", which would depend on delivery order.
 */

/** The stages of Meta's status events (recipient-status.ts' DeliveryStage; spelled here so this module imports nothing). */
type EventStage = 'sent' | 'delivered' | 'read' | 'failed';

/**
 * What Meta says a message costs: `category` normalised (`authentication-international` → `authentication_international`).
 * Every value is an open string (../shared/meta/platform-changes-2026-h2.md row 3): Meta adds categories, types and
 * subtypes without notice, so none is enumerated or refused here; only `billable` is derived when Meta leaves it out.
 */
export interface MessagePricing {
  /** e.g. `marketing`, `utility`, `service`, `group_marketing`, `authentication_international` (normalised). */
  category: string;
  /** e.g. `regular`, `free_customer_service`, `free_group_customer_service`, `free_entry_point` (lower-case, as Meta sends it). */
  type: string;
  /** Meta's flag (slated for deprecation); absent when Meta sent none: derived from `type` (and `subtype`, see pricingOf). */
  billable: boolean;
  /** e.g. `PMP` (per-message pricing) or `CBP` (older webhooks). */
  pricingModel: string;
  /** Meta's `subtype` when given (e.g. `paid_exempt`: an exempt government or non-profit account), lower-case. */
  subtype?: string;
}

/** The stages whose events may carry pricing, highest precedence first. */
export const PRICED_STAGES = ['read', 'delivered', 'sent'] as const;
export type PricedStage = (typeof PRICED_STAGES)[number];

/** Per-stage pricing facts of one recipient (ledger attributes `sentPricing`, `deliveredPricing`, `readPricing`). */
export type PricingFacts = Partial<Record<`${PricedStage}Pricing`, MessagePricing>>;

export const pricingAttributeOf = (stage: EventStage): `${PricedStage}Pricing` | undefined => (stage === 'failed' ? undefined : `${stage}Pricing`);

/**
 * Meta spells one category two ways (the pricing table's hyphen, the conversation table's
 * underscore); counts and filters need one spelling. Lower-case, hyphens as underscores.
 *
 * @example normalisedCategory('authentication-international') // 'authentication_international'
 */
export const normalisedCategory = (category: string): string =>
  // Any other character becomes `_` too: the category rides in the tally code (`~` separates its parts), whatever Meta writes.
  category
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 64);

/**
 * A string field of Meta's object, trimmed and lower-cased, any character but letters, digits and `_`
 * made `_` (the values ride in tally codes and stored facts, which `~` and `:` separate); anything
 * else (absent, a number, an object) is absent.
 */
const openString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== ''
    ? value
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9_]/g, '_')
        .slice(0, 64)
    : undefined;

/**
 * Whether a message Meta priced without `billable` is billed: every `free_…` type is free, and so is a
 * subtype ending in `exempt` (`paid_exempt`: eligible governments and non-profits, free until 2027-12-31);
 * any other value, known or not, is billed (Meta writes `regular` for billed messages).
 *
 * @example billableOf('free_customer_service') // false
 */
export const billableOf = (type: string, subtype?: string): boolean => !type.startsWith('free_') && !(subtype ?? '').endsWith('exempt');

/**
 * Meta's raw `pricing` object to ours; undefined when it has no usable category (nothing to count).
 * Every field is read as an open string: an unknown value is kept as it is, a field of another JSON
 * type is ignored (never the event).
 *
 * @example pricingOf({ billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' })
 * // { category: 'marketing', type: 'regular', billable: true, pricingModel: 'PMP' }
 */
export function pricingOf(raw: {
  billable?: unknown;
  pricing_model?: unknown;
  type?: unknown;
  category?: unknown;
  subtype?: unknown;
}): MessagePricing | undefined {
  const category = openString(raw.category);
  if (category === undefined) return undefined;
  const type = openString(raw.type) ?? 'regular';
  const subtype = openString(raw.subtype);
  return {
    category: normalisedCategory(category),
    type,
    // Meta deprecates `billable`: derived from the type when absent.
    billable: typeof raw.billable === 'boolean' ? raw.billable : billableOf(type, subtype),
    pricingModel: openString(raw.pricing_model)?.toUpperCase() ?? 'PMP',
    ...(subtype === undefined ? {} : { subtype }),
  };
}

/**
 * The recipient's pricing: its highest stage's (read > delivered > sent).
 *
 * @example effectivePricing({ sentPricing: lite, deliveredPricing: marketing }) // marketing
 */
export function effectivePricing(facts: PricingFacts): { stage: PricedStage; pricing: MessagePricing } | undefined {
  for (const stage of PRICED_STAGES) {
    const pricing = facts[`${stage}Pricing`];
    if (pricing) return { stage, pricing };
  }
  return undefined;
}

const PRICING_RANK: Record<PricedStage, string> = { sent: '1', delivered: '3', read: '4' };

/**
 * The suffix a tally code carries for the recipient's pricing: `~<stage rank><category>~<1|0>`,
 * then `~<calling code>` of the recipient when known (the campaign's cost per country: docs/BROADCAST.md
 * "Cost per campaign"). `~` sorts above every character of the codes, and the stage rank comes
 * first, so adding facts (a priced stage, or a higher one) only ever makes the code larger: the
 * tally stays a max-register. A recipient's calling code never changes, and a code without one is
 * a prefix of the code with it (smaller): codes written before it was added still only grow.
 *
 * @example pricingSuffix({ stage: 'sent', pricing }, '44') // '~1marketing~1~44'
 */
export const pricingSuffix = (found: { stage: PricedStage; pricing: MessagePricing } | undefined, callingCode?: string): string =>
  found ? `~${PRICING_RANK[found.stage]}${found.pricing.category}~${found.pricing.billable ? 1 : 0}${callingCode ? `~${callingCode}` : ''}` : '';

/**
 * A tally code split into its status part and its pricing (the summary counts both).
 *
 * @example splitPricedCode('3D~1marketing~1~44') // { status: '3D', pricing: { category: 'marketing', billable: true, callingCode: '44' } }
 */
export function splitPricedCode(code: string): { status: string; pricing?: { category: string; billable: boolean; callingCode?: string } } {
  const [status, pricing, billable, callingCode] = code.split('~');
  if (pricing === undefined || pricing.length < 2) return { status: status! };
  return { status: status!, pricing: { category: pricing.slice(1), billable: billable === '1', ...(callingCode && { callingCode }) } };
}

/** Summary counts of pricing: each recipient once, under its latest category. */
export interface PricingCounts {
  billable: number;
  byCategory: Record<string, number>;
}

export const emptyPricingCounts = (): PricingCounts => ({ billable: 0, byCategory: {} });

export function addPricing(counts: PricingCounts, pricing: { category: string; billable: boolean }): void {
  if (pricing.billable) counts.billable += 1;
  counts.byCategory[pricing.category] = (counts.byCategory[pricing.category] ?? 0) + 1;
}
