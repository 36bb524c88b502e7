/**
 * A model of one SQS standard queue: delays, visibility timeout and redelivery, the dead-letter
 * queue after `maxReceiveCount`, the in-flight limit, and fair queues. With `fair` on, messages
 * carry a group (the organization, as `MessageGroupId`) and a receive takes the groups in turn, so
 * one group's backlog does not lengthen another group's dwell time; with it off (today's queues,
 * no group id) a receive takes the oldest visible message, whoever sent it.
 */
import type { VirtualScheduler } from './virtual-scheduler';

export interface QueuedMessage<T> {
  id: number;
  body: T;
  group: string;
  /** When it was first sent (dwell time is measured from here). */
  sentAt: number;
  receiveCount: number;
}

export interface SqsModelSettings {
  visibilityTimeoutMs: number;
  maxReceiveCount: number;
  /** Standard queues: 120,000 in flight; a receive beyond it returns nothing. */
  inFlightLimit: number;
  fair: boolean;
}

export class SqsModel<T> {
  /** Visible messages per group, oldest first (one group, '', when not fair). */
  private readonly visible = new Map<string, QueuedMessage<T>[]>();
  private readonly groupOrder: string[] = [];
  private groupCursor = 0;
  private readonly inFlight = new Map<number, { message: QueuedMessage<T>; receipt: number }>();
  private nextId = 0;
  private nextReceipt = 0;
  visibleCount = 0;
  readonly deadLetters: QueuedMessage<T>[] = [];
  sent = 0;
  redelivered = 0;
  maxInFlight = 0;
  /** Told when a message becomes visible (the event source polls then). */
  onVisible: () => void = () => undefined;

  constructor(
    private readonly time: VirtualScheduler,
    readonly settings: SqsModelSettings,
  ) {}

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** SendMessage(Batch): visible after `delaySeconds` (SQS caps it at 900 s). */
  send(bodies: readonly T[], group: string, delaySeconds = 0): void {
    for (const body of bodies) {
      const message: QueuedMessage<T> = { id: (this.nextId += 1), body, group, sentAt: this.time.nowMs(), receiveCount: 0 };
      this.sent += 1;
      const delayMs = Math.min(900, Math.max(0, delaySeconds)) * 1000;
      if (delayMs > 0) this.time.at(delayMs, () => this.makeVisible(message));
      else this.makeVisible(message);
    }
  }

  /** ReceiveMessage: up to `max` messages, now invisible for the visibility timeout. */
  receive(max: number): Array<{ message: QueuedMessage<T>; receipt: number }> {
    const taken: Array<{ message: QueuedMessage<T>; receipt: number }> = [];
    while (taken.length < max && this.visibleCount > 0 && this.inFlight.size < this.settings.inFlightLimit) {
      const message = this.takeNext();
      message.receiveCount += 1;
      const receipt = (this.nextReceipt += 1);
      this.inFlight.set(message.id, { message, receipt });
      this.time.at(this.settings.visibilityTimeoutMs, () => this.expire(message, receipt));
      taken.push({ message, receipt });
    }
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight.size);
    return taken;
  }

  /** DeleteMessage: a stale receipt (the message came back and was received again) deletes nothing. */
  delete(message: QueuedMessage<T>, receipt: number): void {
    if (this.inFlight.get(message.id)?.receipt === receipt) this.inFlight.delete(message.id);
  }

  /** The current receipt of an in-flight message (what a record's receipt handle names). */
  receiptOf(id: number): number | undefined {
    return this.inFlight.get(id)?.receipt;
  }

  /**
   * ChangeMessageVisibility: a received message comes back after `seconds` instead of the full
   * timeout (the chunk worker's early redelivery); the receipt handle is `<id>:<receipt>`.
   */
  changeVisibility(receiptHandle: string, seconds: number): void {
    const [id, receipt] = receiptHandle.split(':').map(Number);
    const entry = this.inFlight.get(id!);
    if (!entry || entry.receipt !== receipt) return;
    const moved = (this.nextReceipt += 1);
    entry.receipt = moved;
    this.time.at(seconds * 1000, () => this.expire(entry.message, moved));
  }

  private makeVisible(message: QueuedMessage<T>): void {
    const group = this.settings.fair ? message.group : '';
    let list = this.visible.get(group);
    if (!list) {
      list = [];
      this.visible.set(group, list);
      this.groupOrder.push(group);
    }
    list.push(message);
    this.visibleCount += 1;
    this.onVisible();
  }

  /** Fair: the next group in turn that has a visible message; else the one list. */
  private takeNext(): QueuedMessage<T> {
    for (;;) {
      if (this.groupCursor >= this.groupOrder.length) this.groupCursor = 0;
      const group = this.groupOrder[this.groupCursor]!;
      const list = this.visible.get(group)!;
      if (list.length === 0) {
        // Empty groups leave the rotation (a map of a thousand organizations stays small).
        this.visible.delete(group);
        this.groupOrder.splice(this.groupCursor, 1);
        continue;
      }
      this.groupCursor += 1;
      this.visibleCount -= 1;
      return list.shift()!;
    }
  }

  /** The visibility timeout passed without a delete: visible again, or dead-lettered after maxReceiveCount. */
  private expire(message: QueuedMessage<T>, receipt: number): void {
    if (this.inFlight.get(message.id)?.receipt !== receipt) return;
    this.inFlight.delete(message.id);
    if (message.receiveCount >= this.settings.maxReceiveCount) {
      this.deadLetters.push(message);
      return;
    }
    this.redelivered += 1;
    this.makeVisible(message);
  }
}
