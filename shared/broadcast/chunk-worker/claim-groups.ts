/**
 * The chunk worker's claims in groups: each lane asks for its recipient's claim with its send slot,
 * and the claims asked for close together go to the ledger as one group (`claimRecipients`: one
 * conditional write per ledger page). A group is written when it is full (what the account's rate
 * sends in CLAIM_GROUP_WINDOW_MS, capped) or right before its earliest slot, whichever comes first:
 * a crash then leaves at most that one group's claims without outcomes (UNKNOWN after the next
 * delivery, reconciled by Meta's webhooks), never recipients whose slots were far ahead. With the
 * ledger's page size, a full group keeps back the claims of the last page it holds in part for the
 * next group (still written before their slots), so groups start and end on page edges: a page's
 * claims in one write, not two.
 */
import type { Clock } from '../../ports/clock';
import type { OutboundMessage } from '../chunk-message';
import type { ClaimResult, RecipientClaim, RecipientLedger } from '../ports';

/** The span of sends one group covers: at 80/s a group of 6, at 1,000/s the cap. */
export const CLAIM_GROUP_WINDOW_MS = 75;
/** The largest group (a few ledger pages: one write each). */
export const MOST_CLAIMS_PER_GROUP = 24;
/** A group is written this long before its earliest slot: the time its write takes, so the send is not late. */
export const CLAIM_LEAD_MS = 30;

/**
 * How many claims one group gathers at `messagesPerSecond`.
 *
 * @example
 * claimGroupSize(80); // 6
 * claimGroupSize(1000); // 24
 */
export function claimGroupSize(messagesPerSecond: number): number {
  return Math.max(1, Math.min(MOST_CLAIMS_PER_GROUP, Math.ceil((messagesPerSecond * CLAIM_GROUP_WINDOW_MS) / 1000)));
}

interface Waiting {
  claim: RecipientClaim;
  slot: number;
  resolve(result: ClaimResult): void;
  reject(error: unknown): void;
}

export class ClaimGroups {
  private waiting: Waiting[] = [];
  /** When the pending timer writes (slot time minus the lead), if one is pending. */
  private timerAt: number | undefined;

  constructor(
    private readonly ledger: Pick<RecipientLedger, 'claimRecipients'>,
    private readonly chunk: Pick<OutboundMessage, 'jobId' | 'chunkIndex'>,
    private readonly ports: { clock: Clock; sleep: (ms: number) => Promise<void> },
    private readonly groupSize: number,
    /** Recipients per ledger page (one claim write each); absent: groups are written as they come. */
    private readonly pageSize?: number,
  ) {}

  /**
   * The claim of one recipient whose send starts at `slot` (epoch ms), written with the group it
   * joins; the result is that recipient's own.
   *
   * @example
   * const result = await groups.claim({ index: 7, to: '919800000007' }, slot);
   */
  claim(claim: RecipientClaim, slot: number): Promise<ClaimResult> {
    return new Promise<ClaimResult>((resolve, reject) => {
      this.waiting.push({ claim, slot, resolve, reject });
      if (this.waiting.length >= this.groupSize) this.write({ full: true });
      else this.writeBeforeSlot();
    });
  }

  /**
   * Wakes before the earliest slot waiting and writes whatever is waiting then (a full group may
   * have gone already). One timer at a time, unless a claim's slot comes before it (a slot handed
   * back earlier).
   */
  private writeBeforeSlot(): void {
    const target = Math.min(...this.waiting.map((waiting) => waiting.slot)) - CLAIM_LEAD_MS;
    if (this.timerAt !== undefined && this.timerAt <= target) return;
    this.timerAt = target;
    void this.ports.sleep(Math.max(0, target - this.ports.clock.now().getTime())).then(() => {
      if (this.timerAt === target) this.timerAt = undefined;
      this.write();
    });
  }

  private write(options: { full?: boolean } = {}): void {
    const [group, rest] = options.full ? splitOpenPage(this.waiting, this.pageSize) : [this.waiting, []];
    this.waiting = rest;
    // The claims kept back still go before their slots.
    if (rest.length > 0) this.writeBeforeSlot();
    if (group.length === 0) return;
    const claims = group.map((waiting) => waiting.claim);
    this.ledger.claimRecipients(this.chunk.jobId, this.chunk.chunkIndex, claims, this.ports.clock.now()).then(
      (results) => group.forEach((waiting, position) => waiting.resolve(results[position]!)),
      (error: unknown) => group.forEach((waiting) => waiting.reject(error)),
    );
  }
}

/**
 * A full group's claims less those of the highest ledger page it holds in part, and those kept back;
 * all of them when there is no page size or that page is all the group holds.
 */
function splitOpenPage(waiting: Waiting[], pageSize: number | undefined): [Waiting[], Waiting[]] {
  if (pageSize === undefined || pageSize <= 1) return [waiting, []];
  const pageOf = (entry: Waiting) => Math.floor(entry.claim.index / pageSize);
  const open = Math.max(...waiting.map(pageOf));
  const kept = waiting.filter((entry) => pageOf(entry) === open);
  if (kept.length >= pageSize || kept.length === waiting.length) return [waiting, []];
  return [waiting.filter((entry) => pageOf(entry) !== open), kept];
}
