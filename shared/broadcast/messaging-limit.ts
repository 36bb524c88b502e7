/**
 * Meta's messaging limit, checked at accept time: a business portfolio may reach at most its tier's
 * number of unique recipients in a moving 24 h (docs/BROADCAST.md "Messaging limits").
 *
 * The portfolio's recipients are kept in hourly buckets (reach sketches, reach-sketch.ts): one
 * consistent Query of the buckets of the last 24 h and one conditional write of the send hour's
 * bucket per accept, whatever the recipient count, retried when another accept wrote it first.
 * A request is refused when the union of the window and its recipients exceeds the limit;
 * otherwise its recipients join the send hour's bucket. A set, so a retry or a repeat recipient
 * is never counted twice.
 */
import { StoreUnavailableError } from '../ports/errors';
import { MessagingLimitExceededError } from './errors';
import type { MessagingTiers, PortfolioReach, ReachBucket, SenderAccount } from './ports';
import { cardinalityOf, deserializeSketch, emptySketch, serializeSketch, sketchOfNumbers, unionOf, unionOfAll } from './reach-sketch';

export interface MessagingLimitDependencies {
  messagingTiers: MessagingTiers;
  portfolioReach: PortfolioReach;
}

const HOUR_MS = 3_600_000;
/**
 * The window: the send hour's bucket and the 24 before it. A bucket holds a whole hour, so the
 * oldest one spans 24 to 25 h back: everyone reached in the last 24 h is counted, and some up to
 * an hour longer (conservative, like the rest of the count).
 */
export const REACH_WINDOW_HOURS = 24;
/** Concurrent accepts of one portfolio in one hour each retry on the other's write; this many attempts, then 503 (retry). */
const MAX_WRITE_ATTEMPTS = 8;

/** The bucket of an instant: its UTC hour, `YYYY-MM-DDTHH` (sorts like the time). */
export const reachHourOf = (instant: Date): string => instant.toISOString().slice(0, 13);

/**
 * Counts `recipients` (full international numbers, opt-outs already removed) against the sender's
 * portfolio at `sendAt` (the accept time, or a scheduled job's time: the bucket is the send hour).
 * Throws MessagingLimitExceededError, naming both numbers, when they would exceed the limit;
 * otherwise records them. A number without a limit (TIER_UNLIMITED) reads and writes nothing.
 */
export async function reserveReach(
  dependencies: MessagingLimitDependencies,
  sender: Pick<SenderAccount, 'businessId' | 'phoneNumberId' | 'accessToken'>,
  recipients: readonly string[],
  sendAt: Date,
): Promise<void> {
  if (recipients.length === 0) return;
  const { tier, limit } = await dependencies.messagingTiers.tierOf(sender);
  if (limit === undefined) return;
  const hour = reachHourOf(sendAt);
  const fromHour = reachHourOf(new Date(sendAt.getTime() - REACH_WINDOW_HOURS * HOUR_MS));
  const requested = sketchOfNumbers(recipients);

  for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt += 1) {
    const buckets = await dependencies.portfolioReach.bucketsOf(sender.businessId, fromHour, hour);
    const window = unionOfAll(buckets.map((bucket) => deserializeSketch(bucket.sketch)));
    const alreadyReached = cardinalityOf(window);
    const total = cardinalityOf(unionOf(window, requested));
    // An estimate (dense sketches) may come out below the window's own: never negative.
    const newRecipients = Math.max(0, total - alreadyReached);
    // Only new recipients can pass the limit: a repeat of people already reached is admitted even
    // when the count is above it (a lowered tier, or an estimate's noise).
    if (newRecipients > 0 && alreadyReached + newRecipients > limit) {
      throw new MessagingLimitExceededError(sender.businessId, tier, limit, alreadyReached, newRecipients);
    }
    const current: ReachBucket | undefined = buckets.find((bucket) => bucket.hour === hour);
    const before = current ? deserializeSketch(current.sketch) : emptySketch();
    const after = unionOf(before, requested);
    const bytes = serializeSketch(after);
    // Everyone already in the send hour's bucket (a retry, a repeat): nothing to write.
    if (current && Buffer.from(bytes).equals(Buffer.from(current.sketch))) return;
    const version = current?.version ?? 0;
    if (await dependencies.portfolioReach.writeBucket(sender.businessId, { hour, sketch: bytes, version: version + 1 }, version)) return;
  }
  throw new StoreUnavailableError('The messaging-limit count of this business portfolio is busy; retry with backoff');
}
