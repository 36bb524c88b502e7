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
 *
 * Organizations sharing a portfolio: each bucket also keeps every organization's own recipients,
 * and "new" (a refusal's count, a dry run's `newRecipients`, whether a request can pass the limit at
 * all) means new to the requesting organization, never to the portfolio, so no answer tells one
 * organization whom another reached; the portfolio's total still decides the headroom (erring on
 * caution: a recipient both reached counts twice in the decision, once in the stored count).
 */
import { StoreUnavailableError } from '../ports/errors';
import { MessagingLimitExceededError } from './errors';
import type { MessagingTiers, PortfolioReach, ReachBucket, SenderAccount } from './ports';
import {
  cardinalityOf,
  deserializeSketch,
  emptySketch,
  serializeSketch,
  sketchOfNumbers,
  sparseDifference,
  unionOf,
  unionOfAll,
  withoutHashes,
  type ReachSketch,
} from './reach-sketch';

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
  /** The accepting organization, and the hashes it added to its own part of the hour. */
  organizationId?: string;
  ownHashes?: readonly number[];
}

/** Who asks: the sender's portfolio and number (its tier), and the organization whose own reach "new" is counted against. */
type ReachSender = Pick<SenderAccount, 'organizationId' | 'businessId' | 'phoneNumberId' | 'accessToken'>;

/** The window's count as one organization may see it: the portfolio's whole reach, and its own part. */
interface ReachWindow {
  buckets: ReachBucket[];
  /** Unique recipients of the portfolio in the window. */
  alreadyReached: number;
  /** Of the requested recipients, those the organization itself has not reached in the window. */
  ownNew: number;
}

async function readWindow(
  dependencies: Pick<MessagingLimitDependencies, 'portfolioReach'>,
  sender: ReachSender,
  requested: ReachSketch,
  sendAt: Date,
): Promise<ReachWindow> {
  const fromHour = reachHourOf(new Date(sendAt.getTime() - REACH_WINDOW_HOURS * HOUR_MS));
  const buckets = await dependencies.portfolioReach.bucketsOf(sender.businessId, fromHour, reachHourOf(sendAt));
  const alreadyReached = cardinalityOf(unionOfAll(buckets.map((bucket) => deserializeSketch(bucket.sketch))));
  const own = unionOfAll(buckets.map((bucket) => ownPartOf(bucket, sender.organizationId)));
  // An estimate (dense sketches) may come out below the part's own: never negative.
  const ownNew = Math.max(0, cardinalityOf(unionOf(own, requested)) - cardinalityOf(own));
  return { buckets, alreadyReached, ownNew };
}

const ownPartOf = (bucket: ReachBucket | undefined, organizationId: string): ReachSketch => {
  const bytes = bucket?.byOrganization?.[organizationId];
  return bytes ? deserializeSketch(bytes) : emptySketch();
};

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
  sender: ReachSender,
  recipients: readonly string[],
  sendAt: Date,
): Promise<ReachReservation | undefined> {
  if (recipients.length === 0) return undefined;
  const { tier, limit } = await dependencies.messagingTiers.tierOf(sender);
  if (limit === undefined) return undefined;
  const hour = reachHourOf(sendAt);
  const requested = sketchOfNumbers(recipients);

  for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt += 1) {
    const { buckets, alreadyReached, ownNew } = await readWindow(dependencies, sender, requested, sendAt);
    // Only recipients new to this organization can pass the limit: a repeat of people it already
    // reached is admitted even when the count is above it (a lowered tier, or an estimate's noise).
    if (ownNew > 0 && alreadyReached + ownNew > limit) {
      throw new MessagingLimitExceededError(sender.businessId, tier, limit, alreadyReached, ownNew);
    }
    const current: ReachBucket | undefined = buckets.find((bucket) => bucket.hour === hour);
    const next = bucketAfter(current, sender.organizationId, requested);
    // Everyone already in the send hour's bucket (a retry, a repeat): nothing to write, nothing to give back.
    if (!next.changed) return undefined;
    const version = current?.version ?? 0;
    if (
      await dependencies.portfolioReach.writeBucket(
        sender.businessId,
        { hour, sketch: next.sketch, byOrganization: next.byOrganization, version: version + 1 },
        version,
      )
    ) {
      return reservationOf(sender, hour, next);
    }
  }
  throw new StoreUnavailableError('The messaging-limit count of this business portfolio is busy; retry with backoff');
}

interface NextBucket {
  sketch: Uint8Array;
  byOrganization: Record<string, Uint8Array>;
  changed: boolean;
  /** The portfolio's and the organization's sets before and after: what the reservation can give back. */
  before: ReachSketch;
  after: ReachSketch;
  ownBefore: ReachSketch;
  ownAfter: ReachSketch;
}

/** The send hour's bucket with `requested` added to the portfolio's set and to the organization's own part. */
function bucketAfter(current: ReachBucket | undefined, organizationId: string, requested: ReachSketch): NextBucket {
  const before = current ? deserializeSketch(current.sketch) : emptySketch();
  const after = unionOf(before, requested);
  const ownBefore = ownPartOf(current, organizationId);
  const ownAfter = unionOf(ownBefore, requested);
  const sketch = serializeSketch(after);
  const own = serializeSketch(ownAfter);
  const storedOwn = current?.byOrganization?.[organizationId];
  const changed = !current || !sameBytes(sketch, current.sketch) || !storedOwn || !sameBytes(own, storedOwn);
  return { sketch, byOrganization: { ...current?.byOrganization, [organizationId]: own }, changed, before, after, ownBefore, ownAfter };
}

/** The portfolio's count as a dry run reads it (nothing written): `limit`, `headroom` null without one. */
export interface ReachHeadroom {
  tier: string;
  limit: number | null;
  /** Unique recipients the portfolio reached in the window, every organization's (estimated by a dense sketch); 0 when there is no limit (not read). */
  usedLast24h: number;
  /** The limit minus the window's count, never negative. */
  headroom: number | null;
  /**
   * Of the given recipients, those this organization has not reached in the window (never the
   * portfolio's other organizations' sends): what a real accept counts against the headroom.
   */
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
  sender: ReachSender,
  recipients: readonly string[],
  sendAt: Date,
): Promise<ReachHeadroom> {
  const { tier, limit } = await dependencies.messagingTiers.tierOf(sender);
  if (limit === undefined) return { tier, limit: null, usedLast24h: 0, headroom: null, newRecipients: new Set(recipients).size };
  const { alreadyReached, ownNew } = await readWindow(dependencies, sender, sketchOfNumbers(recipients), sendAt);
  return { tier, limit, usedLast24h: alreadyReached, headroom: Math.max(0, limit - alreadyReached), newRecipients: ownNew };
}

const sameBytes = (left: Uint8Array, right: Uint8Array): boolean => Buffer.from(left).equals(Buffer.from(right));

/** `current` without the reservation's hashes, in the portfolio's set and the organization's part; undefined when nothing changes. */
function bucketReleased(current: ReachBucket, reservation: ReachReservation): Omit<ReachBucket, 'version'> | undefined {
  const remaining = withoutHashes(deserializeSketch(current.sketch), reservation.hashes);
  const sketch = remaining ? serializeSketch(remaining) : current.sketch;
  const organizationId = reservation.organizationId;
  const ownBytes = organizationId === undefined ? undefined : current.byOrganization?.[organizationId];
  const ownRemaining = ownBytes && reservation.ownHashes ? withoutHashes(deserializeSketch(ownBytes), reservation.ownHashes) : undefined;
  const own = ownRemaining ? serializeSketch(ownRemaining) : ownBytes;
  const unchanged = sameBytes(sketch, current.sketch) && (own === undefined || ownBytes === undefined || sameBytes(own, ownBytes));
  if (unchanged) return undefined;
  const byOrganization = organizationId !== undefined && own !== undefined ? { ...current.byOrganization, [organizationId]: own } : current.byOrganization;
  return { hour: current.hour, sketch, ...(byOrganization && { byOrganization }) };
}

function reservationOf(sender: ReachSender, hour: string, next: NextBucket): ReachReservation | undefined {
  // A HyperLogLog bucket (before or after the write) cannot say whom this accept added: it stays counted.
  const hashes = sparseDifference(next.after, next.before) ?? [];
  const ownHashes = sparseDifference(next.ownAfter, next.ownBefore) ?? [];
  if (hashes.length === 0 && ownHashes.length === 0) return undefined;
  return { businessId: sender.businessId, hour, hashes, organizationId: sender.organizationId, ownHashes };
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
    const released = bucketReleased(current, reservation);
    // Already out (a release retried after its write was applied), or a HyperLogLog: nothing to write.
    if (!released) return;
    if (await dependencies.portfolioReach.writeBucket(businessId, { ...released, version: current.version + 1 }, current.version)) return;
  }
  throw new StoreUnavailableError('The messaging-limit count of this business portfolio is busy; its release was not written');
}
