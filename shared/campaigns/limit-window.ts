/**
 * The portfolio's messaging-limit window as the plan reads it (limit-plan.ts): the sender's tier and
 * the window's hourly buckets with their counts. One read of the tier (cached: messaging-tiers.ts)
 * and one consistent Query of the window's buckets; nothing written.
 */
import { REACH_WINDOW_HOURS, reachHourOf, type MessagingLimitDependencies } from '../broadcast/messaging-limit';
import type { SenderAccount } from '../broadcast/ports';
import { cardinalityOf, deserializeSketch, unionOfAll } from '../broadcast/reach-sketch';
import type { LimitWindow } from './limit-plan';

const HOUR_MS = 3_600_000;

/**
 * The window at `now` of the sender's portfolio, with the tier's name.
 *
 * @example
 * const window = await readLimitWindow({ messagingTiers, portfolioReach }, sender, clock.now());
 * planSends(window, 5000);
 */
export async function readLimitWindow(
  dependencies: MessagingLimitDependencies,
  sender: Pick<SenderAccount, 'businessId' | 'phoneNumberId' | 'accessToken'>,
  now: Date,
): Promise<LimitWindow & { tier: string }> {
  const { tier, limit } = await dependencies.messagingTiers.tierOf(sender);
  if (limit === undefined) return { tier, limit: null, usedLast24h: 0, hours: [], now };
  const fromHour = reachHourOf(new Date(now.getTime() - REACH_WINDOW_HOURS * HOUR_MS));
  const buckets = await dependencies.portfolioReach.bucketsOf(sender.businessId, fromHour, reachHourOf(now));
  const sketches = buckets.map((bucket) => deserializeSketch(bucket.sketch));
  const hours = buckets.map((bucket, position) => ({ hour: bucket.hour, recipients: cardinalityOf(sketches[position]!) }));
  return { tier, limit, usedLast24h: cardinalityOf(unionOfAll(sketches)), hours, now };
}
