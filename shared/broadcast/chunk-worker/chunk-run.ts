/**
 * One invocation's sending of a chunk message: the recipients still to take, those given back, the
 * outcomes being written, the job watch and the send session. The lanes (lanes.ts) work on it and
 * each recipient's send (recipient-send.ts) reads and changes it; nothing else shares its state.
 */
import type { ChunkRecipient, OutboundMessage } from '../chunk-message';
import { ChunkOutcomes, type ChunkReport } from '../chunk-outcomes';
import { openSendSession, type SendSession } from '../../sending/dispatch-send';
import type { SendLatencyEstimate } from '../../sending/in-flight-budget';
import { chunkWorkerBudget } from '../../sending/send-policy';
import type { SendSlots } from '../../sending/send-slots';
import type { ChunkInvocation, ProcessChunkDependencies } from './chunk-worker-dependencies';
import type { JobGo, JobGoWatch, PauseEnding } from './job-control';
import type { LaneWork } from './lanes';
import { ClaimGroups, claimGroupSize } from './claim-groups';
import { budgetEndOf, type LanePacing } from './pacing';
import { sendToRecipient, type RecipientSendState } from './recipient-send';
import { SendApiChoice } from './send-api';
import type { RefusedCountries } from './refused-countries';
import { holdAccountJobs } from '../account-hold';
import type { JobPause } from '../ports';
import type { SendWindowHold } from './send-window-hold';
import type { FrequencyCapCheck } from './frequency-caps';

export interface ChunkRunSetup {
  account: { accessToken: string };
  pacing: LanePacing;
  watch: JobGoWatch;
  pause: PauseEnding;
  countries: RefusedCountries;
  /** The link key when the chunk carries tracked links (message-building.ts `needsLinkKey`). */
  linkKey?: Buffer;
  /** The send window's keeping: a recipient whose window closes before their slot is not claimed. */
  windows?: Pick<SendWindowHold, 'closedBy'>;
  /** The organization's frequency cap, when it counts this job (frequency-caps.ts). */
  caps?: FrequencyCapCheck;
}

export class ChunkRun implements LaneWork, RecipientSendState {
  /** Not taken yet (and, after the lanes, the continuation's): in request order until something comes back. */
  readonly pending: ChunkRecipient[];
  /** Claimed, then not sent because the template is not sendable: released, sent after the resume. */
  private readonly held: ChunkRecipient[] = [];
  readonly session: SendSession;
  readonly outcomes: ChunkOutcomes;
  readonly accessToken: string;
  readonly watch: JobGoWatch;
  readonly pause: PauseEnding;
  readonly budgetEnd: () => number;
  readonly sendApi: SendApiChoice;
  readonly claims: ClaimGroups;
  readonly countries: RefusedCountries;
  readonly linkKey: Buffer | undefined;
  private readonly pacing: LanePacing;
  private accountHold: Promise<void> | undefined;

  constructor(
    readonly dependencies: ProcessChunkDependencies,
    readonly message: OutboundMessage,
    invocation: ChunkInvocation,
    private readonly setup: ChunkRunSetup,
  ) {
    const { settings, clock, broadcasts } = dependencies;
    this.pending = [...message.recipients];
    this.accessToken = setup.account.accessToken;
    this.pacing = setup.pacing;
    this.watch = setup.watch;
    this.pause = setup.pause;
    this.countries = setup.countries;
    this.linkKey = setup.linkKey;
    this.session = openSendSession(
      dependencies,
      { accountKey: message.wabaId, messagesPerSecond: setup.pacing.messagesPerSecond },
      settings,
      chunkWorkerBudget(settings),
      // Only as many slots as recipients are left: see SendSlots' `demand`.
      { demand: () => this.pending.length },
    );
    this.outcomes = new ChunkOutcomes(broadcasts, message, settings, clock);
    this.budgetEnd = budgetEndOf(settings, clock, invocation);
    this.sendApi = SendApiChoice.of(message);
    this.claims = new ClaimGroups(broadcasts, message, dependencies, claimGroupSize(setup.pacing.messagesPerSecond), settings.ledgerPageSize);
  }

  get caps(): FrequencyCapCheck | undefined {
    return this.setup.caps;
  }

  get slots(): SendSlots {
    return this.session.slots;
  }

  get latency(): SendLatencyEstimate {
    return this.pacing.latency;
  }

  get failure(): unknown {
    return this.outcomes.failure;
  }

  fail(error: unknown): void {
    this.outcomes.fail(error);
  }

  lanesWanted(): number {
    return this.pacing.lanesWanted();
  }

  goes(): Promise<boolean> {
    return this.watch.goes();
  }

  sendTo(recipient: ChunkRecipient, slot: number): Promise<void> {
    if (this.setup.windows?.closedBy(recipient, slot)) return Promise.resolve(this.slots.giveBack(slot));
    return sendToRecipient(this, recipient, slot);
  }

  /**
   * A send refused because of the account: no lane takes another recipient, and the hold is written
   * at once (the first refusal of this invocation only), with the account's other running jobs, so
   * other workers stop at their next control read. A failed write fails the run (the message is retried).
   */
  holdAccount(refusal: JobPause): void {
    this.watch.holdAccount(refusal.reason);
    this.accountHold ??= holdAccountJobs(this.dependencies, this.message.jobId, refusal).then(
      () => undefined,
      (error: unknown) => this.fail(error),
    );
  }

  async release(recipient: ChunkRecipient): Promise<void> {
    await this.releaseClaim(recipient);
    this.held.push(recipient);
  }

  async continueLater(recipient: ChunkRecipient): Promise<void> {
    await this.releaseClaim(recipient);
    this.pending.push(recipient);
  }

  /**
   * Gives a claimed, never-sent recipient back (a template hold, or a refusal with no time left for
   * its retry). The worker's store calls are retried in place (functions/chunk-worker/chunk-store-retries.ts);
   * when the release still fails, the error surfaces: the lane fails and the record comes back. A
   * claim left in SENDING reads as a crashed send to the next delivery, which records it UNKNOWN
   * (never resent) though nothing went out (docs/BROADCAST.md "Delivery").
   */
  private async releaseClaim(recipient: ChunkRecipient): Promise<void> {
    await this.dependencies.broadcasts.releaseClaim(this.message.jobId, this.message.chunkIndex, recipient.index);
  }

  /**
   * After the lanes: every outcome written and the report's holds counted. The first failure of a
   * lane or a write is thrown: released recipients go back to the message's own retry (the ledger
   * lets them be claimed again).
   */
  async finish(): Promise<ChunkReport> {
    if (this.session.hold.count > 0) this.outcomes.report.rateLimitHolds = this.session.hold.count;
    if (this.sendApi.fallbacks > 0) this.outcomes.report.marketingFallbacks = this.sendApi.fallbacks;
    await this.accountHold;
    await this.outcomes.flush();
    if (this.outcomes.failure !== undefined) throw this.outcomes.failure;
    return this.outcomes.report;
  }

  /** Why the lanes stopped early, if they did: the job cancelled or held. */
  get stop(): Exclude<JobGo, { kind: 'go' }> | undefined {
    const go = this.watch.latest;
    return go.kind === 'go' ? undefined : go;
  }

  /** Recipients neither sent nor settled (held and not taken), in request order. */
  rest(): ChunkRecipient[] {
    return [...this.held, ...this.pending].sort((a, b) => a.index - b.index);
  }
}
