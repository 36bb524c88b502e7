/**
 * The chunk worker and the organization's frequency cap (docs/CAMPAIGNS.md "Frequency caps"). When
 * the organization has a contact policy (read through a per-container cache) that counts the job's
 * template category (the category the job was accepted with), each recipient's place is reserved
 * right after its claim and before its send, under the person's one key across phone and BSUID
 * (shared/send-rules/cap-person-key.ts; the contact book's pairs read once per message), as send
 * `<jobId>#<index>`: a retried or redelivered recipient counts once. Over the cap the recipient is
 * recorded FAILED `FREQUENCY_CAPPED` (never sent, never charged), or, with the job's `deferCapped`,
 * its claim is released and it waits until the cap allows (waiting-rest.ts, tally code `0B`). A send
 * that definitely did not go out (refused, withdrawn, given back) gives its place back; an unknown
 * outcome keeps it. Free-form messages are never capped.
 */
import type { ChunkRecipient, OutboundMessage } from '../chunk-message';
import type { ChunkOutcomes, ChunkReport } from '../chunk-outcomes';
import type { StoredPair } from '../../inbox/contact-book';
import { cappedCategoriesOf } from '../../send-rules/contact-policy';
import { businessScopedIdsAmong, capPersonKeyOf } from '../../send-rules/cap-person-key';
import type { CappedCategory, ContactPolicy } from '../../send-rules/ports';
import type { FrequencyCapPorts } from '../../send-rules/frequency-cap-ports';
import { FREQUENCY_CAPPED } from '../../sending/failure-reasons';
import type { ProcessChunkDependencies } from './chunk-worker-dependencies';
import { holdWaiting, type WaitingDependencies, type WaitingRecipient } from './waiting-rest';

export type { FrequencyCapPorts };

/** What one recipient's reservation came to. */
export type CapVerdict = { kind: 'send' } | { kind: 'capped' } | { kind: 'deferred'; until: Date };

type StartDependencies = Pick<ProcessChunkDependencies, 'broadcasts' | 'clock'> & { frequencyCaps?: FrequencyCapPorts };

/** One invocation's cap keeping: the policy in force, the person keys, the recipients deferred. */
export class FrequencyCapCheck {
  private readonly deferred: WaitingRecipient[] = [];

  private constructor(
    private readonly ports: FrequencyCapPorts,
    private readonly message: OutboundMessage,
    private readonly policy: ContactPolicy,
    private readonly pairs: ReadonlyMap<string, StoredPair>,
  ) {}

  /**
   * The check for `message`, or undefined when nothing of it is capped: a free-form message, no
   * policy, or a job whose category the policy does not count. Reads the policy (cached), then the
   * job's category and the pairs of the message's BSUIDs (one read each).
   *
   * @example
   * const caps = await FrequencyCapCheck.start(dependencies, message); // undefined: no cap applies
   */
  static async start(dependencies: StartDependencies, message: OutboundMessage): Promise<FrequencyCapCheck | undefined> {
    const ports = dependencies.frequencyCaps;
    if (!ports || message.kind !== 'template-chunk' || message.recipients.length === 0) return undefined;
    const policy = await ports.policyOf(message.organizationId);
    if (!policy) return undefined;
    const job = await dependencies.broadcasts.getJob(message.jobId);
    const category = job && job.kind !== 'freeform' ? job.template.category.toUpperCase() : undefined;
    if (!category || !cappedCategoriesOf(policy).includes(category as CappedCategory)) return undefined;
    const bsuids = businessScopedIdsAmong(message.recipients.map(({ to }) => to));
    const pairs = bsuids.length === 0 ? new Map<string, StoredPair>() : await ports.pairsOf(message.organizationId, bsuids);
    return new FrequencyCapCheck(ports, message, policy, pairs);
  }

  private keyOf(recipient: ChunkRecipient): string {
    return capPersonKeyOf(recipient.to, this.pairs);
  }

  private sendIdOf(recipient: ChunkRecipient): string {
    return `${this.message.jobId}#${recipient.index}`;
  }

  /** Reserves the recipient's place at `at` (after its claim, before its send). */
  async reserve(recipient: ChunkRecipient, at: Date): Promise<CapVerdict> {
    const limit = { count: this.policy.marketingPerPerson, perDays: this.policy.perDays };
    const answer = await this.ports.reserve(this.message.organizationId, this.keyOf(recipient), { sendId: this.sendIdOf(recipient), at }, limit);
    if (answer.reserved) return { kind: 'send' };
    return this.message.sendRules?.deferCapped ? { kind: 'deferred', until: answer.allowedAt } : { kind: 'capped' };
  }

  /** Keeps a deferred recipient (its claim already released) for the hold after the lanes. */
  defer(recipient: ChunkRecipient, until: Date): void {
    this.deferred.push({ recipient, until, why: 'cap' });
  }

  /**
   * Gives the recipient's place back: its send definitely did not go out. Best effort: a failed
   * release leaves the place counted until it leaves the window (fewer messages, never more), and
   * must not turn a settled recipient into an unknown one by failing the lane.
   */
  async giveBack(recipient: ChunkRecipient): Promise<void> {
    try {
      await this.ports.release(this.message.organizationId, this.keyOf(recipient), this.sendIdOf(recipient));
    } catch {
      // Counted a little longer than needed: the cap errs toward sending less.
    }
  }

  /**
   * After the lanes: the deferred recipients wait until the cap allows (tally code `0B:<allowed at>`),
   * re-queued unclaimed; `report.waiting` counts them.
   *
   * @example
   * const report = await FrequencyCapCheck.holdDeferred(caps, dependencies, message, await run.finish());
   */
  static async holdDeferred(
    check: FrequencyCapCheck | undefined,
    dependencies: WaitingDependencies,
    message: OutboundMessage,
    report: ChunkReport,
  ): Promise<ChunkReport> {
    if (!check || check.deferred.length === 0) return report;
    return holdWaiting(dependencies, message, check.deferred, report);
  }
}

/** What the cap's step of a recipient's send works with (recipient-send.ts's state). */
export interface CapSendState {
  readonly caps?: FrequencyCapCheck;
  readonly dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock'>;
  readonly message: OutboundMessage;
  readonly outcomes: Pick<ChunkOutcomes, 'record'>;
  readonly session: { readonly slots: { giveBack(slot: number): void } };
}

/**
 * The cap's step, after the claim and before the send: true when the recipient may be sent. Over
 * the cap its slot goes back (nothing is sent) and it is recorded FAILED `FREQUENCY_CAPPED`
 * (attempts 0, never charged), or with `deferCapped` its claim is released and it waits.
 *
 * @example
 * if (!(await passesCap(state, recipient, firstSlot))) return;
 */
export async function passesCap(state: CapSendState, recipient: ChunkRecipient, slot: number): Promise<boolean> {
  const { caps, dependencies, message } = state;
  if (!caps) return true;
  let verdict: CapVerdict;
  try {
    verdict = await caps.reserve(recipient, dependencies.clock.now());
  } catch (error) {
    // The cap could not be read (retries spent): nothing was sent, so the claim goes back before the
    // lane fails, and the message's retry takes the recipient again (not an unknown send).
    await dependencies.broadcasts.releaseClaim(message.jobId, message.chunkIndex, recipient.index);
    throw error;
  }
  if (verdict.kind === 'send') return true;
  state.session.slots.giveBack(slot);
  if (verdict.kind === 'deferred') {
    await dependencies.broadcasts.releaseClaim(message.jobId, message.chunkIndex, recipient.index);
    caps.defer(recipient, verdict.until);
    return false;
  }
  const { index, to } = recipient;
  state.outcomes.record({ index, to, status: 'FAILED', failureReasonCode: FREQUENCY_CAPPED, attempts: 0, updatedAt: dependencies.clock.now().toISOString() });
  return false;
}
