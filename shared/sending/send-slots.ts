/**
 * One sender's share of a business account's schedule: hands out send times from blocks
 * reserved on the shared SendPacer, one reservation at a time. Slots are 1000/rate ms apart and
 * every slot is handed out once, so any number of senders in any number of Lambdas together
 * stay within the account's rate.
 */
import type { Clock } from '../ports/clock';
import type { SendPacer } from './ports';
import { slotBlockSize } from './send-policy';

export interface SendSlotsOptions {
  /** The first reservation's size. */
  firstBlock?: number;
  /** How many slots the sender can still use; caps each later reservation. */
  demand?: () => number;
}

export class SendSlots {
  private next = 0;
  private left = 0;
  private reserving: Promise<void> | undefined;
  /** Slots handed back unused (their recipient needed no send), earliest first. */
  private returned: number[] = [];
  private readonly spacingMs: number;
  private pendingFirstBlock: number | undefined;
  private readonly demand: (() => number) | undefined;

  /**
   * `firstBlock` sizes the first reservation (a bulk call reserves all its recipients in one
   * write); later reservations follow `slotBlockSize`. `demand` says how many slots the sender can
   * still use (a chunk: its recipients not yet given a slot): a block never exceeds it (at least 1,
   * for a retry), because slots reserved and never used stay on the account's schedule and push
   * the next chunk of the same account back by that much at every hand-over.
   *
   * @example
   * const slots = new SendSlots(pacer, 'waba_1', 80, clock, { demand: () => pending.length });
   * const sendAt = await slots.take(); // reserves min(8, pending.length) slots on the account
   */
  constructor(
    private readonly pacer: SendPacer,
    private readonly accountKey: string,
    private readonly ratePerSecond: number,
    private readonly clock: Clock,
    options: SendSlotsOptions = {},
  ) {
    this.spacingMs = 1000 / ratePerSecond;
    this.pendingFirstBlock = options.firstBlock;
    this.demand = options.demand;
  }

  async take(): Promise<number> {
    // A handed-back slot is reused while it is still ahead; a passed one is dropped (no bursts).
    const now = this.clock.now().getTime();
    while (this.returned.length > 0) {
      const slot = this.returned.shift()!;
      if (slot >= now) return slot;
    }
    while (this.left === 0) {
      this.reserving ??= this.reserveBlock().finally(() => {
        this.reserving = undefined;
      });
      await this.reserving;
    }
    const slot = this.next;
    this.next += this.spacingMs;
    this.left -= 1;
    return slot;
  }

  giveBack(slot: number): void {
    this.returned.push(slot);
    this.returned.sort((a, b) => a - b);
  }

  /** When the next send could start if taken now (for time-budget checks). */
  peek(): number {
    return this.returned[0] ?? (this.left > 0 ? this.next : this.clock.now().getTime());
  }

  private async reserveBlock(): Promise<void> {
    const size = this.pendingFirstBlock ?? this.blockSize();
    this.pendingFirstBlock = undefined;
    const start = await this.pacer.reserve(this.accountKey, size, this.ratePerSecond, this.clock.now().getTime());
    this.next = start;
    this.left = size;
  }

  private blockSize(): number {
    const standard = slotBlockSize(this.ratePerSecond);
    const wanted = this.demand?.();
    return wanted === undefined ? standard : Math.max(1, Math.min(standard, wanted));
  }
}
