/**
 * A template's max price (Meta's bid cap for marketing messages; fact sheet row 4,
 * `../shared/meta/marketing-messages-api.md` §2): set on the template as `optimization_spec`
 * (`bid_amount`, `bid_strategy`), which replaced `bid_spec` on 2026-06-18. Such a template is sent
 * through the Marketing Messages API only (Meta refuses it on `/messages` with 131061), never to a
 * business-scoped user id (131062), and its delivered price varies up to the cap: estimates say
 * "up to" (docs/BROADCAST.md "Marketing Messages API", "Dry run").
 */
import * as v from 'valibot';
import type { UpstreamTemplate } from '../sending/ports';

/** The cap as the template states it: Meta's `bid_amount` (in the ad account's currency, as Meta writes it) and `bid_strategy`. */
export const maxPriceSchema = v.object({ bidAmount: v.string(), bidStrategy: v.optional(v.string()) });
export type MaxPrice = v.InferOutput<typeof maxPriceSchema>;

const amountOf = (value: unknown): string | undefined =>
  (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.trim() !== '') ? String(value).trim() : undefined;

/**
 * The template's max price, from `optimization_spec` (or the older `bid_spec`); undefined when it
 * has none (no object, or no `bid_amount`: a spec without an amount caps nothing).
 *
 * @example
 * maxPriceOf({ ...template, optimization_spec: { bid_amount: 0.05, bid_strategy: 'LOWEST_COST_WITH_BID_CAP' } });
 * // { bidAmount: '0.05', bidStrategy: 'LOWEST_COST_WITH_BID_CAP' }
 */
export function maxPriceOf(template: Pick<UpstreamTemplate, 'optimization_spec' | 'bid_spec'>): MaxPrice | undefined {
  for (const spec of [template.optimization_spec, template.bid_spec]) {
    if (typeof spec !== 'object' || spec === null) continue;
    const bidAmount = amountOf(spec.bid_amount);
    if (bidAmount === undefined) continue;
    return { bidAmount, ...(typeof spec.bid_strategy === 'string' && { bidStrategy: spec.bid_strategy }) };
  }
  return undefined;
}
