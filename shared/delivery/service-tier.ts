/**
 * Meta's free tier of service (free-form) messages (../shared/meta/platform-changes-2026-h2.md rows 1–3;
 * docs/DELIVERY-STATUS.md "Service messages"): since 2026-10-01 Meta bills every delivered service
 * message beyond the first 1,000 per business phone number and calendar month (no roll-over).
 *
 * The platform counts them itself, per sending number (its phone number id) and **UTC** calendar month
 * of Meta's delivery time (decision: Meta names no time zone; the counter is read back by the same
 * rule), from the status webhooks: Meta bills delivered messages, so a `delivered` (or, when Meta
 * skips it, `read`/`played`) status counts, once per message id. What counts:
 *
 * - a status Meta priced in category `service` (whatever sent it: a free-form job, an /upstream
 *   send, another app on the same number: Meta's tier is the number's);
 * - a status of a free-form job (`msg_…` of kind `freeform`) that carries no pricing.
 *
 * Meta's pricing is the truth when the status carries it (`free_customer_service`: within the tier,
 * `regular`: billed, `subtype: paid_exempt`: an exempt account). Only a free-form status without any
 * gets the tier's verdict from the count (serviceTierPricing).
 */
import type { MessagePricing } from './message-pricing';
import type { StatusEvent } from './ports';

/** Delivered service messages free per business phone number and calendar month. */
export const FREE_SERVICE_MESSAGES_PER_MONTH = 1_000;

/** Meta's pricing category of service (free-form) messages, as pricingOf normalises it. */
export const SERVICE_CATEGORY = 'service';

/**
 * The month a delivery counts in: UTC, `YYYY-MM`.
 *
 * @example serviceMonthOf(new Date('2026-10-31T23:59:59Z')) // '2026-10'
 */
export const serviceMonthOf = (at: Date): string => at.toISOString().slice(0, 7);

/**
 * Meta's verdict for the `ordinal`-th delivered service message of a number's month, as Meta writes it.
 *
 * @example serviceTierPricing(1000).type // 'free_customer_service'
 * @example serviceTierPricing(1001).billable // true
 */
export function serviceTierPricing(ordinal: number): MessagePricing {
  const free = ordinal <= FREE_SERVICE_MESSAGES_PER_MONTH;
  return { category: SERVICE_CATEGORY, type: free ? 'free_customer_service' : 'regular', billable: !free, pricingModel: 'PMP' };
}

/** The job kind a ledger job id names (job-fan-out.ts' prefixes: `msg_` is a free-form job). */
export const isFreeformJobId = (jobId: string): boolean => jobId.startsWith('msg_');

/**
 * Whether a status event counts toward its number's service tier: a first reach of the user
 * (`delivered`, or `read` when Meta skips it: the count keeps one per message id) of a message
 * Meta priced as `service`, or of a free-form job's message Meta did not price.
 *
 * @example countsAsServiceDelivery({ stage: 'delivered', pricing: { category: 'service', … } }, false) // true
 */
export function countsAsServiceDelivery(event: Pick<StatusEvent, 'stage' | 'pricing'>, freeformJob: boolean): boolean {
  if (event.stage !== 'delivered' && event.stage !== 'read') return false;
  return event.pricing ? event.pricing.category === SERVICE_CATEGORY : freeformJob;
}

/** The counter of delivered service messages (messaging table; fake in test/support/delivery-fakes.ts). */
export interface ServiceMessageCounter {
  /**
   * Counts one delivered service message of `phoneNumberId` in `month` (`YYYY-MM`), once per
   * `messageId`: the answer is the message's ordinal in the month it was first counted in (a
   * repeat, or a later `read` of the same message, gets the same ordinal and month, and adds nothing).
   */
  countDelivery(phoneNumberId: string, month: string, messageId: string): Promise<{ ordinal: number; month: string }>;
  /** Delivered service messages of `phoneNumberId` counted in `month` so far (0 when none). */
  deliveriesIn(phoneNumberId: string, month: string): Promise<number>;
}

/**
 * Counts a service delivery and gives the event its price: Meta's pricing stays (the truth); a
 * free-form `delivered` without pricing gets the tier's verdict from its ordinal. A `read` without
 * pricing counts (when Meta skipped `delivered`) but is not priced here: its stage would outrank a
 * pricing Meta gave on `delivered` (message-pricing.ts: the latest by status precedence). An event
 * that does not count is returned as it is.
 *
 * @example const priced = await priceServiceDelivery(counter, '1065…', event, isFreeformJobId(jobId));
 */
export async function priceServiceDelivery(
  counter: ServiceMessageCounter | undefined,
  phoneNumberId: string,
  event: StatusEvent,
  freeformJob: boolean,
): Promise<StatusEvent> {
  if (!counter || !countsAsServiceDelivery(event, freeformJob)) return event;
  const { ordinal } = await counter.countDelivery(phoneNumberId, serviceMonthOf(event.timestamp), event.messageId);
  return event.pricing || event.stage !== 'delivered' ? event : { ...event, pricing: serviceTierPricing(ordinal) };
}

/** What a number's month of service messages looks like so far (the dry run's `serviceMessages`). */
export interface ServiceTierUsage {
  month: string;
  delivered: number;
  freeRemaining: number;
}

/**
 * @example serviceTierUsage('2026-11', 1200) // { month: '2026-11', delivered: 1200, freeRemaining: 0 }
 */
export const serviceTierUsage = (month: string, delivered: number): ServiceTierUsage => ({
  month,
  delivered,
  freeRemaining: Math.max(0, FREE_SERVICE_MESSAGES_PER_MONTH - delivered),
});
