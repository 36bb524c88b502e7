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
 *
 * An accept that fails after reserving, before any of its messages was queued, gives its recipients
 * back (`releaseReach`): those it added to an exact hour set are taken out again. A HyperLogLog
 * bucket cannot lose members, so there a reservation stays counted (erring on caution).
 */
import { StoreUnavailableError } from '../ports/errors';
import { MessagingLimitExceededError } from './errors';
import type { MessagingTiers, PortfolioReach, ReachBucket, SenderAccount } from './ports';
import { cardinalityOf, deserializeSketch, emptySketch, serializeSketch, sketchOfNumbers, sparseDifference, unionOf, unionOfAll, withoutHashes, type ReachSketch } from './reach-sketch';

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

/** What an accept added to its portfolio's count: what `releaseReach` takes out when the accept fails. */
export interface ReachReservation {
  businessId: string;
  /** The send hour's bucket it wrote. */
  hour: string;
  /** Hashes of the recipients that were not in that hour's exact set before (reach-sketch.ts). */
  hashes: readonly number[];
}

/** The bucket of an instant: its UTC hour, `YYYY-MM-DDTHH` (sorts like the time). */
export const reachHourOf = (instant: Date): string => instant.toISOString().slice(0, 13);

/**
 * Counts `recipients` (full international numbers, opt-outs already removed) against the sender's
 * portfolio at `sendAt` (the accept time, or a scheduled job's time: the bucket is the send hour).
 * Throws MessagingLimitExceededError, naming both numbers, when they would exceed the limit;
 * otherwise records them and returns what it added, to be released if the accept fails (undefined:
 * nothing that can be given back). A number without a limit (TIER_UNLIMITED) reads and writes nothing.
 *
 * @example
 * const reservation = await reserveReach(dependencies, sender, ['919800000001'], clock.now());
 * // … the accept fails before queueing:
 * await releaseReach(dependencies, reservation);
 */
export async function reserveReach(
  dependencies: MessagingLimitDependencies,
  sender: Pick<SenderAccount, 'businessId' | 'phoneNumberId' | 'accessToken'>,
  recipients: readonly string[],
  sendAt: Date,
): Promise<ReachReservation | undefined> {
  if (recipients.length === 0) return undefined;
  const { tier, limit } = await dependencies.messagingTiers.tierOf(sender);
  if (limit === undefined) return undefined;
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
    // Everyone already in the send hour's bucket (a retry, a repeat): nothing to write, nothing to give back.
    if (current && sameBytes(bytes, current.sketch)) return undefined;
    const version = current?.version ?? 0;
    if (await dependencies.portfolioReach.writeBucket(sender.businessId, { hour, sketch: bytes, version: version + 1 }, version)) {
      return reservationOf(sender.businessId, hour, before, after);
    }
  }
  throw new StoreUnavailableError('The messaging-limit count of this business portfolio is busy; retry with backoff');
}

/** The portfolio's count as a dry run reads it (nothing written): `limit`, `headroom` null without one. */
export interface ReachHeadroom {
  tier: string;
  limit: number | null;
  /** Unique recipients reached in the window (estimated by a dense sketch); 0 when there is no limit (not read). */
  usedLast24h: number;
  /** The limit minus the window's count, never negative. */
  headroom: number | null;
  /** Of the given recipients, those the window has not reached yet: what a real accept would add. */
  newRecipients: number;
}

/**
 * What `reserveReach` would decide, read only: one Query of the window's buckets, no write, no
 * reservation (the dry run, docs/BROADCAST.md "Dry run").
 *
 * @example
 * await reachHeadroom(dependencies, sender, ['919800000001'], clock.now());
 * // { tier: 'TIER_1K', limit: 1000, usedLast24h: 10, headroom: 990, newRecipients: 1 }
 */
export async function reachHeadroom(
  dependencies: MessagingLimitDependencies,
  sender: Pick<SenderAccount, 'businessId' | 'phoneNumberId' | 'accessToken'>,
  recipients: readonly string[],
  sendAt: Date,
): Promise<ReachHeadroom> {
  const { tier, limit } = await dependencies.messagingTiers.tierOf(sender);
  if (limit === undefined) return { tier, limit: null, usedLast24h: 0, headroom: null, newRecipients: new Set(recipients).size };
  const window = await windowSketchOf(dependencies, sender.businessId, sendAt);
  const usedLast24h = cardinalityOf(window);
  const newRecipients = recipients.length === 0 ? 0 : Math.max(0, cardinalityOf(unionOf(window, sketchOfNumbers(recipients))) - usedLast24h);
  return { tier, limit, usedLast24h, headroom: Math.max(0, limit - usedLast24h), newRecipients };
}

/** The union of the window's hourly buckets ending at `sendAt`'s hour. */
async function windowSketchOf(dependencies: Pick<MessagingLimitDependencies, 'portfolioReach'>, businessId: string, sendAt: Date): Promise<ReachSketch> {
  const buckets = await dependencies.portfolioReach.bucketsOf(businessId, reachHourOf(new Date(sendAt.getTime() - REACH_WINDOW_HOURS * HOUR_MS)), reachHourOf(sendAt));
  return unionOfAll(buckets.map((bucket) => deserializeSketch(bucket.sketch)));
}

const sameBytes = (left: Uint8Array, right: Uint8Array): boolean => Buffer.from(left).equals(Buffer.from(right));

function reservationOf(businessId: string, hour: string, before: ReachSketch, after: ReachSketch): ReachReservation | undefined {
  // A HyperLogLog bucket (before or after the write) cannot say whom this accept added: it stays counted.
  const hashes = sparseDifference(after, before);
  return hashes && hashes.length > 0 ? { businessId, hour, hashes } : undefined;
}

/**
 * Takes a failed accept's recipients out of the hour's exact set again: those it added, found in
 * the bucket as it is now (a conditional write on its version, read again when another accept
 * wrote first, like the reservation). A bucket that turned into a HyperLogLog since keeps them
 * counted. A recipient another accept of the same hour named after this one had added it is taken
 * out too (that accept found it counted): rare, and it only makes the count lower by that one.
 *
 * @example
 * await releaseReach({ portfolioReach }, reservation); // undefined: nothing to do
 */
export async function releaseReach(dependencies: Pick<MessagingLimitDependencies, 'portfolioReach'>, reservation: ReachReservation | undefined): Promise<void> {
  if (!reservation) return;
  const { businessId, hour } = reservation;
  for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt += 1) {
    const current = (await dependencies.portfolioReach.bucketsOf(businessId, hour, hour)).find((bucket) => bucket.hour === hour);
    if (!current) return;
    const remaining = withoutHashes(deserializeSketch(current.sketch), reservation.hashes);
    if (!remaining) return;
    const bytes = serializeSketch(remaining);
    // Already out (a release retried after its write was applied): nothing to write.
    if (sameBytes(bytes, current.sketch)) return;
    if (await dependencies.portfolioReach.writeBucket(businessId, { hour, sketch: bytes, version: current.version + 1 }, current.version)) return;
  }
  throw new StoreUnavailableError('The messaging-limit count of this business portfolio is busy; its release was not written');
}
