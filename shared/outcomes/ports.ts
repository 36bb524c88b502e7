/**
 * What attribution and the click redirect need from storage (docs/OUTCOMES.md).
 *
 * - OutcomeStore: a recipient's outcome facts live in the same tally item as Meta's delivery facts
 *   of that recipient (`JOB#<jobId>` / `TALLY#<bucket>`), as sets written only with `ADD`, so one
 *   outcome costs one write and no read, duplicates change nothing, and the summary counts exactly.
 * - TouchStore: the person's latest touch (the last job that reached them, or a campaign that held
 *   them out), so an inbound message without `context` costs one read to find its campaign.
 */
import type { LedgerApplyResult, LedgerLocation } from '../delivery/ports';
import type { OutcomeEvent, OutcomeFacts } from './outcome-facts';

export interface OutcomeStore {
  /**
   * Adds the events' facts to the recipients' tally slots: one write per event, no read. Each
   * result says whether the event added anything (`unchanged`: a duplicate, e.g. a redelivered
   * webhook or a second click within the same second), so customer events follow only new facts.
   * Idempotent and order-independent. The caller checked the tenant and that the index is the job's.
   */
  recordOutcomes(jobId: string, events: ReadonlyArray<{ location: LedgerLocation; event: OutcomeEvent }>): Promise<LedgerApplyResult[]>;
  /** One recipient's outcome facts (consistent read); empty when none. */
  outcomesOf(jobId: string, index: number): Promise<OutcomeFacts>;
  /**
   * One counted click on the recipient's tracked link (the redirect): the same single `ADD` as
   * `recordOutcomes`, which also tells the recipient's first click from a later one (`link.clicked`
   * says `first`) from the set's old value, still without a read. `unchanged`: a second click within
   * the same second (counted once).
   */
  recordClick(location: LedgerLocation, at: Date): Promise<ClickRecorded>;
}

/** What a click added: the recipient's first click, a later one, or nothing (the same second as one counted). */
export type ClickRecorded = 'first' | 'again' | 'unchanged';

/** The latest send that reached a person, or a campaign that held them out. */
export interface Touch {
  jobId: string;
  campaignId?: string;
  chunkIndex: number;
  index: number;
  /** Delivery time (Meta's), or for a held-out person the time the campaign's page was expanded. ISO. */
  at: string;
  /** Hours after `at` an inbound message without context is attributed (the job's or campaign's `attributionWindowHours`). */
  windowHours: number;
  /** The person was held out of the campaign (never sent): their inbound messages count for the lift, not as replies. */
  heldOut?: true;
}

export interface TouchStore {
  /**
   * Records each person's touch under every key given (a phone number's digits and, when known,
   * the BSUID), keeping the newer `at` (a conditional write: an older touch arriving late never
   * replaces a newer one). Idempotent.
   */
  recordTouches(organizationId: string, touches: ReadonlyArray<{ personKeys: readonly string[]; touch: Touch }>): Promise<void>;
  /** The newest touch under any of the keys (one batched read); undefined when none. */
  latestTouch(organizationId: string, personKeys: readonly string[]): Promise<Touch | undefined>;
}
