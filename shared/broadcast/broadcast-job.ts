/**
 * A broadcast job and how its state is derived from its chunks.
 *
 * States (documented in docs/BROADCAST.md):
 *   [SCHEDULED →] QUEUED_FOR_PROCESSING → PROCESSING [⇄ PAUSED] → COMPLETED | COMPLETED_WITH_FAILURES | FAILED
 * SCHEDULED: accepted with `scheduledAt`, its chunk messages held until it fires (schedule-job.ts).
 * PAUSED: its template stopped being APPROVED while it ran; workers hold the rest until it is
 * approved again or the pause times out (the rest then fail TEMPLATE_PAUSED).
 * The 202 answer says PROCESSING (the contract's word for an accepted job); a status read
 * before any worker has started says QUEUED_FOR_PROCESSING. A cancelled job reads CANCELLED once
 * its chunks are done or nobody is left pending (until then, while its workers stop, it reads as
 * before); a job that was never cancelled never reads CANCELLED. A cancel that withheld nobody (it
 * came after every recipient was sent, failed or unknown, or raced the last chunk) does not make the
 * job CANCELLED: it reads the state its sends earned, and its status notes `cancelRequestedAt`.
 */

import { maxPriceSchema } from './template-max-price';
import * as v from 'valibot';
import type { PricingCounts } from '../delivery/message-pricing';
import type { CampaignCost } from '../pricing/campaign-cost';
import type { Lift } from '../outcomes/lift';
import type { OutcomeCounts } from '../outcomes/outcome-facts';
import { outcomeSummaryOf, type OutcomeSummary } from './outcome-summary';
import { countTallyCode, emptyDeliveryCounts, type DeliveryCounts, type TallyCode } from '../delivery/recipient-status';
import { waitingSummaryOf, type WaitingCounts } from '../delivery/waiting-codes';
import { sendRulesSchema } from '../send-rules/send-rules.schema';
import { haltFiguresSchema } from '../send-rules/halt-figures';
import { attributionWindowHoursSchema, templateContentSchema, variableNamesSchema } from './template-broadcast.schema';

/** Every state a job reads as (the status filter of the broadcasts list accepts exactly these). */
export const JOB_STATUSES = [
  'SCHEDULED',
  'QUEUED_FOR_PROCESSING',
  'PROCESSING',
  'PAUSED',
  'COMPLETED',
  'COMPLETED_WITH_FAILURES',
  'FAILED',
  'CANCELLED',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const TERMINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['COMPLETED', 'COMPLETED_WITH_FAILURES', 'FAILED', 'CANCELLED']);

export const CHUNK_SIZE = 1000;
/** Above this many recipients a broadcast is a pollable job; at or below it, a queued bulk send. */
export const SYNCHRONOUS_THRESHOLD = 1000;

/**
 * A job: what every accept path records (the common fields) plus what its kind sends. The schema
 * is the one definition of a job: the type comes from it and the messaging table decodes stored
 * items with it, so a new attribute is added here and where the job is built (job-fan-out.ts).
 */
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const jobCommon = {
  jobId: v.string(),
  organizationId: v.string(),
  /** Jobs of more than 1,000 recipients are returned to the client; smaller ones are kept for reporting. */
  exposed: v.boolean(),
  wabaId: v.string(),
  phoneNumberId: v.string(),
  fromPhoneNumber: v.string(),
  /** The credential that accepted the job (absent on jobs recorded before it was kept): scopes status reads of minted keys. */
  createdByCredentialId: v.optional(v.string()),
  totalRecipients: count,
  totalChunks: count,
  chunkSize: count,
  createdAt: v.string(),
  /** Set once by the first cancel (cancel-job.ts); workers stop sending when they see it. */
  cancelledAt: v.optional(v.string()),
  /** Why, when not the business's own cancel: `ORGANIZATION_SUSPENDED` (an operator suspended the organization). */
  cancelReason: v.optional(v.string()),
  /** Accepted for later: when its chunk messages are to be queued (absent: queued at accept). */
  scheduledAt: v.optional(v.string()),
  /** A scheduled job's firing: when its held chunk messages were queued. */
  firedAt: v.optional(v.string()),
  /** Set while the job's template is not sendable (PAUSED / DISABLED by Meta); removed on resume. */
  pausedAt: v.optional(v.string()),
  /** Why the job is paused, e.g. `TEMPLATE_PAUSED` (the template's state as Meta reports it). */
  pauseReason: v.optional(v.string()),
  /** While paused: when the remaining recipients fail TEMPLATE_PAUSED unless the template is approved again. */
  pauseFailsAt: v.optional(v.string()),
  /** Who paused the job: `meta` (docs/BROADCAST.md "When Meta refuses the account"); absent on template pauses recorded before it was kept. */
  pausedBy: v.optional(v.picklist(['meta', 'user', 'canary'])),
  /** The Meta error code that paused the job (an account refusal). */
  pauseCode: v.optional(v.number()),
  /** Meta's words with that code. */
  pauseText: v.optional(v.string()),
  /** A person's pause: the credential that paused the job (pause-job.ts). */
  pausedByCredentialId: v.optional(v.string()),
  /** A halt by the campaign's canary or halt thresholds: the measured rates beside their thresholds (docs/CAMPAIGNS.md "Canary and halt thresholds"). */
  pauseHalt: v.optional(haltFiguresSchema),
  /** When a person last resumed a hold until resumed (resume-job.ts): a refusal seen before it no longer pauses the job. */
  resumedAt: v.optional(v.string()),
  /** Calling codes Meta refused for the account (130497) while the job ran: their recipients failed unsent. */
  refusedCountries: v.optional(v.array(v.string())),
  /**
   * Set when queueing failed after it had started (job-fan-out.ts): some of the job's messages may
   * never have been queued. Removed when a retry with the same Idempotency-Key queues the job again.
   */
  acceptFailedAt: v.optional(v.string()),
  /**
   * A job accepted under an Idempotency-Key: the SHA-256 of the request body, so a later attempt
   * with the same key and another body is refused even when the key's record is gone (a failed accept).
   */
  requestHash: v.optional(v.string()),
};
const templateReference = v.object({
  name: v.string(),
  language: v.string(),
  category: v.string(),
  id: v.string(),
  /** A template broadcast's header, buttons, carousel or offer shared by every recipient (docs/BROADCAST.md "Rich templates"). */
  content: v.optional(templateContentSchema),
  variableNames: v.optional(variableNamesSchema),
  /** The route decided at accept (marketing-messages-route.ts): `marketing_messages`, or absent for Cloud API (every job before it). */
  api: v.optional(v.literal('marketing_messages')),
  /** The template's max price at accept (template-max-price.ts): sent through the Marketing Messages API only, never falling back. */
  maxPrice: v.optional(maxPriceSchema),
  /** The template's quick-reply buttons (index, label, the payload the broadcast gave): a tap's index is found among them (docs/OUTCOMES.md "Attribution"). */
  quickReplies: v.optional(v.array(v.object({ index: count, text: v.optional(v.string()), payload: v.optional(v.string()) }))),
});

export const broadcastJobSchema = v.variant('kind', [
  /** send-template-broadcast. */
  v.object({
    ...jobCommon,
    kind: v.literal('template'),
    broadcastName: v.string(),
    template: templateReference,
    /** A follow-up's parent: the job whose recipients it was sent to (follow-up.ts). */
    followUpOf: v.optional(v.string()),
    /** A campaign's job (docs/CAMPAIGNS.md): created at launch without recipients, appended to by the campaign expander. */
    campaignId: v.optional(v.string()),
    /**
     * An open-ended job's expansion: `open` while the expander may still append chunks (the job never
     * reads finished then), `done` once it closed the job with its totals, `stopped` when a cancel closed it
     * before every member was read (the cancel withheld those: the job reads CANCELLED). Absent: every other job.
     */
    expansion: v.optional(v.picklist(['open', 'done', 'stopped'])),
    /** Hours after delivery an inbound message without context is attributed to the job (docs/OUTCOMES.md "Attribution"); absent: 72. */
    attributionWindowHours: v.optional(attributionWindowHoursSchema),
    /** The rules kept toward the people reached: send window, deferral over the cap, canary, halt thresholds (docs/CAMPAIGNS.md); absent: none. */
    sendRules: v.optional(sendRulesSchema),
  }),
  /** The earlier send-single / send-bulk (charged); only bulk sends carry a campaign name. */
  v.object({
    ...jobCommon,
    kind: v.literal('earlier'),
    mode: v.picklist(['single', 'bulk']),
    broadcastName: v.optional(v.string()),
    template: templateReference,
  }),
  /** send-freeform: one prepared message of one of the free-form types. */
  v.object({ ...jobCommon, kind: v.literal('freeform'), messageType: v.string() }),
]);

export type BroadcastJob = v.InferOutput<typeof broadcastJobSchema>;
export type JobKind = BroadcastJob['kind'];

export interface ChunkProgress {
  chunkIndex: number;
  recipientCount: number;
  sent: number;
  failed: number;
  unknown: number;
  failuresByReason: Record<string, number>;
  started: boolean;
  done: boolean;
  /** When the chunk was done (absent until then). */
  doneAt?: string;
}

export interface JobSummary extends OutcomeSummary {
  /** Accepted by Meta and not failed since (delivered and read included). */
  sent: number;
  /** Failed on send, refused at accept, or failed by webhook (Meta's code in failuresByReason). */
  failed: number;
  /** Sends whose outcome is unknown (timeout, 502), within the window to be reconciled with delivery events. */
  unknown: number;
  pending: number;
  chunksDone: number;
  chunksTotal: number;
  failuresByReason: Record<string, number>;
  /** Of `sent`, delivered to the phone (read included). */
  delivered: number;
  /** Of `delivered`, read. */
  read: number;
  /** Unknown outcomes no event resolved within the window (UNCONFIRMED_AFTER_HOURS). */
  unconfirmed: number;
  /** Never sent because the job was cancelled; present on cancelled jobs only (other answers stay as they were). */
  cancelled?: number;
  /**
   * Meta's pricing of the status webhooks: billable recipients and recipients per category, each
   * recipient once, under its latest pricing (by status precedence). Present once any recipient
   * has pricing.
   */
  pricing?: PricingCounts;
  /** What the billable recipients cost at the operator's rate card (get-job-status.ts); absent without a card or a billable recipient. */
  cost?: CampaignCost;
  /**
   * Accepted by Meta but held for quality assessment (template pacing): not failed, not sent yet,
   * until a status webhook settles them. Present while any recipient is held.
   */
  held?: number;
  /** A campaign's lift over its holdout (docs/OUTCOMES.md "Holdout and lift"); present when the job has held-out recipients. */
  lift?: Lift;
  /** Of `pending`, waiting for their send window (docs/CAMPAIGNS.md "Send windows"); present while any is. */
  waitingForWindow?: number;
  /** The earliest opening among them (ISO); with `waitingForWindow`. */
  nextWindowAt?: string;
  /** Of `pending`, deferred by the organization's frequency cap (`deferCapped`, docs/CAMPAIGNS.md "Frequency caps"); present while any is. */
  deferredByCap?: number;
  /** The earliest time the cap lets one of them go (ISO); with `deferredByCap`. */
  nextCapAt?: string;
}

/** The tally codes of a job (shared/delivery/recipient-status.ts) and how to read them now. */
export interface DeliveryTally {
  codes: ReadonlyArray<readonly [index: number, code: TallyCode]>;
  /** The job's outcomes (JobProgress.outcomes): the summary's replied, clicked, buttons, repliedByStop, heldOut. */
  outcomes?: OutcomeCounts;
  now: Date;
  unconfirmedAfterMs: number;
}

/**
 * The job's state and its summary. The state and `chunksDone` come from the chunk items, as they
 * always did. The counts come from the tally items, one max-register per recipient, so duplicate
 * or reordered events cannot count anyone twice; a chunk with no tally code at all (a job recorded
 * before tallies existed, or a chunk not started) is counted from its chunk counters instead.
 */
export function summarizeJob(job: BroadcastJob, chunks: readonly ChunkProgress[], tally?: DeliveryTally): { status: JobStatus; summary: JobSummary } {
  const summary: JobSummary = {
    sent: 0,
    failed: 0,
    unknown: 0,
    pending: 0,
    chunksDone: 0,
    chunksTotal: job.totalChunks,
    failuresByReason: {},
    delivered: 0,
    read: 0,
    unconfirmed: 0,
  };
  const codesByChunk = new Map<number, DeliveryCounts>();
  for (const [index, code] of tally?.codes ?? []) {
    const chunkIndex = Math.floor(index / job.chunkSize);
    const counts = codesByChunk.get(chunkIndex) ?? emptyDeliveryCounts();
    countTallyCode(counts, code, tally!.now, tally!.unconfirmedAfterMs);
    codesByChunk.set(chunkIndex, counts);
  }
  const addFailures = (failuresByReason: Record<string, number>) => {
    for (const [reason, count] of Object.entries(failuresByReason)) summary.failuresByReason[reason] = (summary.failuresByReason[reason] ?? 0) + count;
  };

  let cancelled = 0;
  let held = 0;
  let heldOut = 0;
  const waiting: WaitingCounts[] = [];
  let anyStarted = false;
  let sentByChunkCounters = 0;
  for (const chunk of chunks) {
    sentByChunkCounters += chunk.sent;
    if (chunk.done) summary.chunksDone += 1;
    anyStarted ||= chunk.started;
    if (codesByChunk.has(chunk.chunkIndex)) continue;
    summary.sent += chunk.sent;
    summary.failed += chunk.failed;
    summary.unknown += chunk.unknown;
    addFailures(chunk.failuresByReason);
  }
  for (const counts of codesByChunk.values()) {
    summary.sent += counts.sent;
    summary.failed += counts.failed;
    summary.unknown += counts.unknown;
    summary.delivered += counts.delivered;
    summary.read += counts.read;
    summary.unconfirmed += counts.unconfirmed;
    cancelled += counts.cancelled;
    addFailures(counts.failuresByReason);
    addPricingCounts(summary, counts.pricing);
    held += counts.held;
    heldOut += counts.heldOut;
    if (counts.waiting) waiting.push(counts.waiting);
  }
  Object.assign(summary, waitingSummaryOf(waiting));
  if (held > 0) summary.held = held;
  if (heldOut > 0) summary.heldOut = heldOut;
  summary.pending = Math.max(0, job.totalRecipients - summary.sent - summary.failed - summary.unknown - summary.unconfirmed - cancelled - held - heldOut);
  // A scheduled job cancelled before it fired never queues anything, and a cancelled job whose accept
  // failed may have recipients that never reached the queue: everyone still pending is cancelled.
  if (job.cancelledAt !== undefined && (isAwaitingFiring(job) || job.acceptFailedAt !== undefined)) {
    cancelled += summary.pending;
    summary.pending = 0;
  }
  if (job.cancelledAt !== undefined) summary.cancelled = cancelled;
  Object.assign(summary, outcomeSummaryOf(tally?.outcomes));

  return { status: statusOf(job, summary, { cancelled, heldOut, anyStarted, sentByChunkCounters }), summary };
}

function addPricingCounts(summary: JobSummary, pricing: PricingCounts): void {
  const categories = Object.entries(pricing.byCategory);
  if (categories.length === 0) return;
  const total = (summary.pricing ??= { billable: 0, byCategory: {} });
  total.billable += pricing.billable;
  for (const [category, count] of categories) total.byCategory[category] = (total.byCategory[category] ?? 0) + count;
}

/** The state a job reads, from its summary and what its chunks recorded. */
function statusOf(
  job: BroadcastJob,
  summary: JobSummary,
  recorded: { cancelled: number; heldOut: number; anyStarted: boolean; sentByChunkCounters: number },
): JobStatus {
  // A job the campaign expander still appends to is never finished, whatever its chunks say so far.
  if (isExpansionOpen(job))
    return job.pausedAt !== undefined && job.cancelledAt === undefined ? 'PAUSED' : recorded.anyStarted ? 'PROCESSING' : 'QUEUED_FOR_PROCESSING';
  // A cancel withheld someone unless every recipient ended sent, failed or unknown: one that came too
  // late (or raced the last chunk) leaves the state the sends earned, as job.completed announced it.
  const cancelWithheld = recorded.cancelled > 0 || summary.pending > 0 || (job.kind === 'template' && job.expansion === 'stopped');
  if (job.cancelledAt !== undefined && cancelWithheld && (summary.chunksDone >= job.totalChunks || summary.pending === 0)) return 'CANCELLED';
  if (summary.chunksDone >= job.totalChunks) {
    // The worker's outcomes decide FAILED (nothing sent); a failure Meta reported by webhook after the
    // send (in the summary's `failed`) makes an all-sent job COMPLETED_WITH_FAILURES, read from the
    // counts every read has already, so the write path does not change (docs/BROADCAST.md "Job states").
    // Held-out members (a campaign's holdout) were never to be sent: the job is judged on the others.
    const sent = recorded.sentByChunkCounters;
    const toSend = job.totalRecipients - recorded.heldOut;
    if (sent === 0) return toSend === 0 && job.totalRecipients > 0 ? 'COMPLETED' : 'FAILED';
    return sent === toSend && summary.failed === 0 ? 'COMPLETED' : 'COMPLETED_WITH_FAILURES';
  }
  if (isAwaitingFiring(job)) return 'SCHEDULED';
  // A cancelled job is no longer waiting for its template: it reads as settling (PROCESSING) until its held rest is cancelled.
  if (job.pausedAt !== undefined && job.cancelledAt === undefined) return 'PAUSED';
  return recorded.anyStarted ? 'PROCESSING' : 'QUEUED_FOR_PROCESSING';
}

/** A scheduled job whose time has not fired yet: nothing of it is queued. */
export const isAwaitingFiring = (job: BroadcastJob): boolean => job.scheduledAt !== undefined && job.firedAt === undefined;

/** A campaign's job while the expander may still append chunks to it: it reads neither finished nor complete. */
export const isExpansionOpen = (job: BroadcastJob): boolean => job.kind === 'template' && job.expansion === 'open';
