/**
 * One recipient's status, as the recipients list and the job summary report it, derived from two
 * sources that never overwrite each other:
 *
 * - the send outcome the chunk worker records in the ledger (SENDING → SENT | FAILED | UNKNOWN), and
 * - Meta's status events, kept as first-seen timestamps per stage (`sentAt`, `deliveredAt`,
 *   `readAt`, `failedAt` + Meta's error). Events only ever add a timestamp that was absent, so
 *   applying them is idempotent and order-independent: duplicates and reordering cannot move a
 *   status backwards.
 *
 * Precedence (highest wins): READ > DELIVERED > FAILED (by webhook) > SENT > UNKNOWN.
 * - `read` without `delivered` is READ (Meta skips `delivered` when both happen together).
 * - Meta's `played` (a voice message listened to) arrives here as `read` (the parser's stage,
 *   webhook-payload.schema.ts): it counts with read; status values Meta adds later never arrive.
 * - A `failed` event after `delivered` or `read` does not change the status (multi-device: the
 *   message reached the user on one device); its error is still kept. A `delivered` or `read`
 *   after `failed` wins, for the same reason.
 * - An UNKNOWN send outcome becomes whatever its events say; with no event within the window
 *   (default 24 h after the outcome was recorded) it reads UNCONFIRMED. Computed when read, so no
 *   sweeper is needed and the window is a setting of the reader.
 * - A send that failed synchronously (Meta refused the call, or the platform refused the
 *   recipient) stays FAILED: no event can follow a message that was never accepted.
 * - A recipient the job's cancellation reached before its send was claimed is CANCELLED: never
 *   sent, so no event can follow either.
 * - A message Meta accepted but holds for quality assessment (template pacing: the send answer's
 *   `message_status` is `held_for_quality_assessment`) is HELD: not failed, not sent yet. Any status
 *   webhook settles it by the precedence above (Meta's `sent` when it lets the message go, or
 *   `failed`, e.g. when the template is paused).
 * - A member a campaign held out (its holdout, docs/OUTCOMES.md "Holdout and lift") is HELD_OUT:
 *   never sent, so no event can follow; neither sent, failed nor pending in the summary.
 */
import { countWaitingCode, type WaitingCounts } from './waiting-codes';
import {
  addPricing,
  effectivePricing,
  pricingAttributeOf,
  emptyPricingCounts,
  pricingSuffix,
  splitPricedCode,
  type MessagePricing,
  type PricingCounts,
  type PricingFacts,
} from './message-pricing';

/** WAITING: not claimed yet, held for the recipient's send window or the frequency cap (a waiting tally code, list-recipients.ts); a kind of pending. */
export const RECIPIENT_STATUSES = [
  'PENDING',
  'SENT',
  'DELIVERED',
  'READ',
  'FAILED',
  'UNKNOWN',
  'UNCONFIRMED',
  'CANCELLED',
  'HELD',
  'HELD_OUT',
  'WAITING',
] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export type DeliveryStage = 'sent' | 'delivered' | 'read' | 'failed';

/** What Meta's events told us about one message: first-seen time (ISO) per stage, the failure, and the pricing per stage (message-pricing.ts). */
export interface DeliveryFacts extends PricingFacts {
  sentAt?: string;
  deliveredAt?: string;
  readAt?: string;
  failedAt?: string;
  metaErrorCode?: number;
  metaErrorTitle?: string;
}

/** The send outcome recorded by the worker (absent: not claimed yet). */
export interface SendOutcome {
  status: 'SENDING' | 'SENT' | 'FAILED' | 'UNKNOWN' | 'CANCELLED' | 'HELD_OUT';
  /** A SENT outcome Meta holds for quality assessment (the ledger entry's `held`). */
  held?: boolean;
  /** When the outcome was recorded (ISO). */
  updatedAt: string;
}

export const DEFAULT_UNCONFIRMED_AFTER_MS = 24 * 3600 * 1000;

export function recipientStatusOf(
  outcome: SendOutcome | undefined,
  facts: DeliveryFacts,
  now: Date,
  unconfirmedAfterMs = DEFAULT_UNCONFIRMED_AFTER_MS,
): RecipientStatus {
  if (outcome?.status === 'FAILED') return 'FAILED';
  if (outcome?.status === 'CANCELLED') return 'CANCELLED';
  if (outcome?.status === 'HELD_OUT') return 'HELD_OUT';
  if (facts.readAt) return 'READ';
  if (facts.deliveredAt) return 'DELIVERED';
  if (facts.failedAt) return 'FAILED';
  if (facts.sentAt) return 'SENT';
  if (outcome?.status === 'SENT') return outcome.held ? 'HELD' : 'SENT';
  if (outcome?.status === 'UNKNOWN') return now.getTime() - Date.parse(outcome.updatedAt) >= unconfirmedAfterMs ? 'UNCONFIRMED' : 'UNKNOWN';
  return 'PENDING';
}

/**
 * The compact form of a recipient's status kept in the job's tally items (one attribute per
 * recipient, 50 recipients per item), from which the summary counts exactly. Ordered so that a
 * string comparison is the precedence above: a writer sets a code only when the stored one is
 * absent or smaller (events), or only when absent (the worker's outcome), so every tally
 * attribute is a max-register that converges whatever the order and however often it is written.
 *
 *   0A:<epoch seconds>  waiting for the recipient's send window, which opens then (never sent yet; any outcome raises it)
 *   0B:<epoch seconds>  deferred by the organization's frequency cap until then (never sent yet)
 *   0U:<epoch seconds>  unknown outcome, recorded at that time (UNCONFIRMED once the window passed)
 *   1H                  accepted by Meta but held for quality assessment (below 1S: any event raises it)
 *   1S                  sent (accepted by Meta)
 *   2F:<meta code>      failed by webhook
 *   3D                  delivered
 *   4R                  read
 *   9C                  cancelled: the job was cancelled before the recipient's send; never overridden
 *   9X:<reason>         failed synchronously (the ledger's failure reason); never overridden
 *   9H                  held out of a campaign (its holdout): never sent; never overridden
 *
 * Events add the recipient's pricing to 1S, 3D and 4R (`~<stage rank><category>~<billable>`,
 * message-pricing.ts), and write the code of the entry's merged facts (tallyCodeOfFacts), not of the
 * event alone: a `delivered` with pricing arriving after a `read` without any still raises `4R` to
 * `4R~3marketing~1`. Every added fact makes that code larger, so it remains a max-register.
 */
export type TallyCode = string;

export const tallyCodes = {
  /** Waiting for the recipient's send window (docs/CAMPAIGNS.md "Send windows"), which opens at `opensAt`. */
  waitingForWindow: (opensAt: Date): TallyCode => `0A:${Math.floor(opensAt.getTime() / 1000)}`,
  /** Deferred by the frequency cap (`deferCapped`) until `allowedAt` (docs/CAMPAIGNS.md "Frequency caps"). */
  waitingForCap: (allowedAt: Date): TallyCode => `0B:${Math.floor(allowedAt.getTime() / 1000)}`,
  unknown: (recordedAt: Date): TallyCode => `0U:${Math.floor(recordedAt.getTime() / 1000)}`,
  held: '1H',
  sent: '1S',
  failedByWebhook: (metaCode: number | string): TallyCode => `2F:${metaCode}`,
  delivered: '3D',
  read: '4R',
  failedOnSend: (reason: string): TallyCode => `9X:${reason}`,
  cancelled: '9C',
  /** Held out of a campaign (docs/OUTCOMES.md "Holdout and lift"): never sent, status HELD_OUT; never overridden. */
  heldOut: '9H',
} as const;

/** Events set their code only when the stored one sorts below this rank (see tallyCodes). */
export const tallyRankOf = (stage: DeliveryStage): string => ({ sent: '1', failed: '2', delivered: '3', read: '4' })[stage];

export function tallyCodeOfEvent(stage: DeliveryStage, metaErrorCode?: number): TallyCode {
  switch (stage) {
    case 'sent':
      return tallyCodes.sent;
    case 'delivered':
      return tallyCodes.delivered;
    case 'read':
      return tallyCodes.read;
    case 'failed':
      return tallyCodes.failedByWebhook(metaErrorCode ?? 'UNKNOWN');
  }
}

/**
 * The tally code of everything Meta's events said about a recipient (the ledger entry's facts after
 * the event was added): the status by precedence, plus the pricing on a status that reached the
 * user or Meta (a failed message is not counted as billed). Undefined without any stage fact.
 *
 * @example tallyCodeOfFacts({ sentAt: '…', deliveredAt: '…', deliveredPricing: marketing }) // '3D~3marketing~1'
 */
export function tallyCodeOfFacts(facts: DeliveryFacts, callingCode?: string): TallyCode | undefined {
  // The recipient's calling code rides on the pricing suffix (message-pricing.ts): the cost per country, no extra write.
  const priced = pricingSuffix(effectivePricing(facts), callingCode);
  if (facts.readAt) return tallyCodes.read + priced;
  if (facts.deliveredAt) return tallyCodes.delivered + priced;
  if (facts.failedAt) return tallyCodes.failedByWebhook(facts.metaErrorCode ?? 'UNKNOWN');
  if (facts.sentAt) return tallyCodes.sent + priced;
  return undefined;
}

/** What factsAfterEvent reads of a status event (ports.ts' StatusEvent; named here so this module does not import ports.ts). */
export interface FactEvent {
  stage: DeliveryStage;
  timestamp: Date;
  error?: { code: number; title: string };
  pricing?: MessagePricing;
}

/**
 * What a status event that added a fact did (LedgerDeliveryStore.applyEvents): a `read` of a
 * recipient whose `delivered` was known before it is `applied-after-delivery` (the delivery keeps the
 * person's touch), any other `applied`. One rule for the adapter and the fakes.
 *
 * @example
 * addedFactResult('read', true); // 'applied-after-delivery'
 * addedFactResult('read', false); // 'applied' (Meta skipped `delivered`: the read is the touch)
 */
export const addedFactResult = (stage: DeliveryStage, deliveredKnownBefore: boolean): 'applied' | 'applied-after-delivery' =>
  stage === 'read' && deliveredKnownBefore ? 'applied-after-delivery' : 'applied';

/**
 * The facts an entry holds once the event is added, as the `if_not_exists` update leaves them
 * (first seen wins): the DynamoDB adapter computes it from the update's old image, so the tally
 * code costs no read.
 *
 * @example tallyCodeOfFacts(factsAfterEvent(stored, event))
 */
export function factsAfterEvent(before: DeliveryFacts, event: FactEvent): DeliveryFacts {
  const after: DeliveryFacts = { ...before };
  after[`${event.stage}At` as const] ??= event.timestamp.toISOString();
  if (event.stage === 'failed' && event.error) {
    after.metaErrorCode ??= event.error.code;
    after.metaErrorTitle ??= event.error.title;
  }
  const pricingAttribute = pricingAttributeOf(event.stage);
  if (pricingAttribute && event.pricing) after[pricingAttribute] ??= event.pricing;
  return after;
}

/**
 * One recipient's facts from two records (the ledger entry's, written by versions before the tally
 * items held facts, and the tally item's): per stage the earlier time wins, with that record's
 * pricing of the stage (else the other's); the failure of the earlier `failedAt` with its error.
 *
 * @example mergeDeliveryFacts({ sentAt: '…:05Z' }, { sentAt: '…:03Z', readAt: '…' }) // { sentAt: '…:03Z', readAt: '…' }
 */
export function mergeDeliveryFacts(a: DeliveryFacts, b: DeliveryFacts | undefined): DeliveryFacts {
  if (!b) return a;
  const merged: DeliveryFacts = {};
  const first = (stage: DeliveryStage) => {
    const at = [a, b].filter((facts) => facts[`${stage}At`] !== undefined).sort((x, y) => x[`${stage}At`]!.localeCompare(y[`${stage}At`]!));
    return [...at, a, b];
  };
  for (const stage of ['sent', 'delivered', 'read'] as const) {
    const [winner, ...rest] = first(stage);
    const at = winner![`${stage}At`];
    if (at !== undefined) merged[`${stage}At`] = at;
    const pricing = [winner!, ...rest].map((facts) => facts[`${stage}Pricing`]).find((found) => found !== undefined);
    if (pricing) merged[`${stage}Pricing`] = pricing;
  }
  const [failure] = first('failed');
  if (failure!.failedAt !== undefined) {
    merged.failedAt = failure!.failedAt;
    if (failure!.metaErrorCode !== undefined) merged.metaErrorCode = failure!.metaErrorCode;
    if (failure!.metaErrorTitle !== undefined) merged.metaErrorTitle = failure!.metaErrorTitle;
  }
  return merged;
}

/** Recipients per tally item: 50 short attributes stay under 1 KB, one write unit per update. */
export const TALLY_BUCKET_SIZE = 50;

export interface DeliveryCounts {
  /** Accepted by Meta and not failed since (delivered and read included). */
  sent: number;
  /** Of those, delivered (read included). */
  delivered: number;
  read: number;
  /** Failed on send plus failed by webhook. */
  failed: number;
  unknown: number;
  unconfirmed: number;
  /** Never sent: the job was cancelled first. */
  cancelled: number;
  /** Accepted by Meta but held for quality assessment (template pacing); not in `sent` until a webhook settles it. */
  held: number;
  /** Held out of a campaign (code 9H): never sent; neither sent, failed nor pending. */
  heldOut: number;
  /** Reasons of both kinds of failures: the ledger's reason codes and Meta's error codes. */
  failuresByReason: Record<string, number>;
  /** Recipients with any code (the rest are pending). */
  accounted: number;
  /** Billable recipients and recipients per pricing category, each once (under its latest pricing). */
  pricing: PricingCounts;
  /** Waiting unclaimed (codes 0A, 0B; docs/CAMPAIGNS.md "Send windows", "Frequency caps") and the earliest time given (epoch s); absent: none. */
  waiting?: WaitingCounts;
}

export const emptyDeliveryCounts = (): DeliveryCounts => ({
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  unknown: 0,
  unconfirmed: 0,
  cancelled: 0,
  held: 0,
  heldOut: 0,
  failuresByReason: {},
  accounted: 0,
  pricing: emptyPricingCounts(),
});

/** Adds one recipient's tally code to the counts. */
export function countTallyCode(counts: DeliveryCounts, stored: TallyCode, now: Date, unconfirmedAfterMs = DEFAULT_UNCONFIRMED_AFTER_MS): void {
  const { status: code, pricing } = splitPricedCode(stored);
  if (pricing) addPricing(counts.pricing, pricing);
  counts.accounted += 1;
  const failure = (reason: string) => {
    counts.failed += 1;
    counts.failuresByReason[reason] = (counts.failuresByReason[reason] ?? 0) + 1;
  };
  // Waiting: never sent yet, so pending in the summary (not accounted), counted apart.
  if (countWaitingCode(counts, code)) {
    counts.accounted -= 1;
    return;
  }
  switch (code.slice(0, 2)) {
    case '0U': {
      const recordedAt = Number(code.slice(3)) * 1000;
      if (now.getTime() - recordedAt >= unconfirmedAfterMs) counts.unconfirmed += 1;
      else counts.unknown += 1;
      return;
    }
    case '1S':
      counts.sent += 1;
      return;
    case '1H':
      counts.held += 1;
      return;
    case '2F':
      failure(code.slice(3));
      return;
    case '3D':
      counts.sent += 1;
      counts.delivered += 1;
      return;
    case '4R':
      counts.sent += 1;
      counts.delivered += 1;
      counts.read += 1;
      return;
    case '9X':
      failure(code.slice(3));
      return;
    case '9C':
      counts.cancelled += 1;
      return;
    case '9H':
      counts.heldOut += 1;
      return;
    default:
      counts.accounted -= 1;
  }
}
