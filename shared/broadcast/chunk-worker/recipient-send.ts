/**
 * One recipient through steps 1 to 3 of the chunk worker: claim it in the ledger, dispatch its
 * send through the sending engine, and record the outcome, or give it back (released for after a
 * template pause, continued in the next message when a refusal left no time for the retry). A
 * recipient on the organization's opt-out list at send time is claimed FAILED OPTED_OUT instead
 * and never sent (send-time-opt-outs.ts).
 */
import type { ChunkRecipient, OutboundMessage } from '../chunk-message';
import type { ChunkOutcomes } from '../chunk-outcomes';
import type { SentVia } from '../marketing-messages-route';
import type { ClaimState, JobPause, LedgerEntry } from '../ports';
import { dispatchSend, type Dispatched, type SendSession } from '../../sending/dispatch-send';
import { accountHoldOf, failureReasonOf, OPTED_OUT, stopsCountry, templateHoldOf, UNKNOWN_OUTCOME } from '../../sending/failure-reasons';
import { accountHoldFrom } from '../account-hold';
import type { SendLatencyEstimate } from '../../sending/in-flight-budget';
import type { ProcessChunkDependencies } from './chunk-worker-dependencies';
import type { JobGoWatch, PauseEnding } from './job-control';
import { messageBodyFor } from './message-building';
import type { ClaimGroups } from './claim-groups';
import { optedOutAtSendTime } from './send-time-opt-outs';
import { COUNTRY_REFUSED_REASON, type RefusedCountries } from './refused-countries';
import type { SendApiChoice } from './send-api';
import { resolveStaleClaim } from './settle-chunk';
import { passesCap, type FrequencyCapCheck } from './frequency-caps';

/** What a recipient's send works with: one invocation's state (chunk-run.ts). */
export interface RecipientSendState {
  readonly dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock' | 'upstream' | 'optOuts'>;
  readonly message: OutboundMessage;
  readonly accessToken: string;
  readonly session: SendSession;
  readonly outcomes: ChunkOutcomes;
  readonly watch: JobGoWatch;
  readonly pause: PauseEnding;
  readonly latency: SendLatencyEstimate;
  /** The invocation's claims, written in groups right before their slots (claim-groups.ts). */
  readonly claims: Pick<ClaimGroups, 'claim'>;
  /** Countries Meta refused for the account (130497): their recipients fail unsent. */
  readonly countries: Pick<RefusedCountries, 'refuses' | 'refuse'>;
  /** The API this invocation sends through (the job's route, Cloud API after the Marketing Messages API refused the template). */
  readonly sendApi: SendApiChoice;
  /** The link key of tracked-link tokens, when the chunk has tracked buttons. */
  readonly linkKey?: Buffer;
  /** The organization's frequency cap, when it counts this job (frequency-caps.ts). */
  readonly caps?: FrequencyCapCheck;
  budgetEnd(): number;
  /** Claimed, not sent because the template is not sendable: released, sent after the resume. */
  release(recipient: ChunkRecipient): Promise<void>;
  /** Meta refused the account: stop, and hold the job and the account's other running jobs (chunk-run.ts). */
  holdAccount(refusal: JobPause): void;
  /** Claimed, refused, out of time for a retry: released, and taken by the continuation. */
  continueLater(recipient: ChunkRecipient): Promise<void>;
}

/**
 * Claims `recipient`, sends it from `firstSlot` on (retries on later slots), then records what
 * happened or gives the recipient back.
 */
export async function sendToRecipient(state: RecipientSendState, recipient: ChunkRecipient, firstSlot: number): Promise<void> {
  const { dependencies, message, session, watch, latency } = state;
  const { clock } = dependencies;
  // The lane is busy from its slot, or from now when it is late: then the claim counts too.
  const busyFrom = Math.max(firstSlot, clock.now().getTime());
  if (await optedOutAtSendTime(state, recipient)) return refuseUnsent(state, recipient, () => session.slots.giveBack(firstSlot), OPTED_OUT);
  if (state.countries.refuses(recipient)) return refuseUnsent(state, recipient, () => session.slots.giveBack(firstSlot), COUNTRY_REFUSED_REASON);
  if (!(await claim(state, recipient, firstSlot, () => session.slots.giveBack(firstSlot)))) return;
  if (!(await passesCap(state, recipient, firstSlot))) return;
  const body = messageBodyFor(message, recipient, state.linkKey);
  let via: SentVia = state.sendApi.current;
  const dispatched = await dispatchSend(session, {
    firstSlot,
    startsInTime: (slot) => slot < state.budgetEnd(),
    send: async () => {
      const routed = await state.sendApi.send(dependencies.upstream, message.phoneNumberId, body, { accessToken: state.accessToken });
      via = routed.via;
      // Meta refused the account: no lane takes another recipient, and a retry (131048) is withdrawn.
      const refusal = routed.outcome.kind === 'rejected' ? accountHoldFrom(routed.outcome.error, clock.now()) : undefined;
      if (refusal) state.holdAccount(refusal);
      return routed.outcome;
    },
    stillWanted: () => watch.goes(),
  });
  if (dispatched.kind !== 'withdrawn') latency.observe(clock.now().getTime() - busyFrom);
  // Definitely not sent: the frequency cap's place goes back (an unknown outcome keeps it).
  if (state.caps && (dispatched.kind === 'failed' || dispatched.kind === 'withdrawn')) await state.caps.giveBack(recipient);
  const hold = dispatched.kind === 'failed' ? templateHoldOf(dispatched.rejection.error.code) : undefined;
  if (hold !== undefined) {
    watch.hold(hold);
    return state.release(recipient);
  }
  // Refused because of the account (131064, 131042, 131031, 131048): nothing was sent; sent after the resume.
  if (dispatched.kind === 'failed' && accountHoldOf(dispatched.rejection.error.code) !== undefined) return state.release(recipient);
  // Withdrawn at its slot because the job is held (not cancelled): released like a refused one.
  if (dispatched.kind === 'withdrawn' && watch.latest.kind === 'paused') return state.release(recipient);
  // Refused with a retryable error (a 130429 near the end, most often) and no time left for the
  // retry: definitely not sent, so it goes on in the continuation message instead of failing.
  if (dispatched.kind === 'failed' && dispatched.outOfTime) return state.continueLater(recipient);
  // 130497: Meta refuses the recipient's country for the account; the country's other recipients fail unsent.
  if (dispatched.kind === 'failed' && stopsCountry(dispatched.rejection.error.code)) await state.countries.refuse(recipient);
  state.outcomes.record(ledgerEntryOf(recipient, dispatched, clock.now(), via));
  if (dispatched.kind === 'sent') await state.pause.endOnAccepted();
}

/**
 * Never to be sent: on the opt-out list at send time (OPTED_OUT), or of a country Meta refused for
 * the account (130497). Its slot goes back at once (nothing is sent), and it is claimed directly as
 * FAILED with the reason (final at once, as a cancellation's are: a crash after the claim leaves it
 * refused, never an unknown send) and recorded with the chunk's outcomes, so it is counted in
 * `failuresByReason` and listed like one refused at accept time.
 */
async function refuseUnsent(state: RecipientSendState, recipient: ChunkRecipient, giveBackSlot: () => void, reason: string): Promise<void> {
  giveBackSlot();
  const refused: ClaimState = { status: 'FAILED', failureReasonCode: reason };
  if (!(await claim(state, recipient, state.dependencies.clock.now().getTime(), () => undefined, refused))) return;
  const { index, to } = recipient;
  state.outcomes.record({ index, to, status: 'FAILED', failureReasonCode: reason, attempts: 0, updatedAt: state.dependencies.clock.now().toISOString() });
}

/**
 * Step 1: the conditional ledger claim, written before any upstream call (`as` SENDING, or a final
 * state for a recipient never to be sent), with the group of claims whose slots are close
 * (claim-groups.ts). False when the recipient is already someone's: nothing to send, and its slot
 * goes back (`giveBackSlot`) before any further store call, so another lane can use it.
 */
async function claim(state: RecipientSendState, { index, to }: ChunkRecipient, slot: number, giveBackSlot: () => void, as?: ClaimState): Promise<boolean> {
  const { dependencies, message, outcomes } = state;
  const result = await state.claims.claim({ index, to, ...(as === undefined ? {} : { as }) }, slot);
  if (result.claimed) return true;
  giveBackSlot();
  outcomes.skipped();
  if (await resolveStaleClaim(dependencies, message, index, result.existing)) outcomes.staleClaimResolved();
  return false;
}

/** Step 3's entry: the ledger's view of a dispatched send (step 2); a message the Marketing Messages API took says so (`sentVia`). */
function ledgerEntryOf({ index, to }: ChunkRecipient, dispatched: Dispatched, now: Date, via: SentVia): LedgerEntry {
  const base = { index, to, attempts: dispatched.attempts, updatedAt: now.toISOString() };
  switch (dispatched.kind) {
    case 'sent':
      return {
        ...base,
        status: 'SENT',
        messageId: dispatched.messageId,
        ...(via === 'marketing_messages' ? { sentVia: via } : {}),
        ...(dispatched.held ? { held: true as const } : {}),
      };
    case 'unknown':
      return { ...base, status: 'UNKNOWN', failureReasonCode: `${UNKNOWN_OUTCOME}: ${dispatched.outcome.reason}` };
    case 'failed':
      return { ...base, status: 'FAILED', failureReasonCode: failureReasonOf(dispatched.rejection.error) };
    case 'withdrawn':
      return { ...base, status: 'CANCELLED' };
  }
}
