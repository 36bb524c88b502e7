/**
 * When is an SQS event source idle? The `idle()` calls waiting for an answer, and the two checks
 * that can give it: a poll that started after the call came back empty with no batch in flight,
 * or a quick probe of the queue's counts (no visible, no in-flight message, no batch).
 */
import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';

export interface IdleWatchSource {
  sqs: SQSClient;
  queueUrl: string;
  isRunning(): boolean;
  batchesInFlight(): number;
}

export class IdleWatch {
  /** Orders idle() calls, polls and probes: only a check that starts after an idle() call can answer it. */
  private sequence = 0;
  private readonly waiters: Array<{ registeredAt: number; resolve: () => void }> = [];
  private probing = false;
  private probeAgain = false;

  constructor(private readonly source: IdleWatchSource) {}

  /**
   * The start of a check (a poll): its place in the order.
   *
   * @example
   * const pollStartedAt = watch.checkStarts();
   * // … the poll comes back empty with no batch in flight:
   * watch.resolveWaiters(pollStartedAt);
   */
  checkStarts(): number {
    return ++this.sequence;
  }

  /** A promise of the next idle moment observed after this call. */
  wait(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiters.push({ registeredAt: ++this.sequence, resolve });
      this.probe();
    });
  }

  /** Resolves the idle() calls made before a check that started at `checkStartedAt` found the queue empty. */
  resolveWaiters(checkStartedAt: number): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i] as { registeredAt: number; resolve: () => void };
      if (waiter.registeredAt < checkStartedAt) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }

  /** Every waiter, at once (the source stopped). */
  resolveAll(): void {
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
  }

  /**
   * Fast idle check, so idle() need not wait for a long poll to come back empty: no visible and no
   * in-flight message (a message a poll has just taken is in flight until deleted) and no batch.
   */
  probe(): void {
    if (!this.source.isRunning() || this.waiters.length === 0) return;
    if (this.probing) {
      this.probeAgain = true;
      return;
    }
    this.probing = true;
    const startedAt = ++this.sequence;
    this.source.sqs
      .send(
        new GetQueueAttributesCommand({
          QueueUrl: this.source.queueUrl,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      )
      .then(
        (result) => {
          const visible = Number(result.Attributes?.ApproximateNumberOfMessages ?? NaN);
          const inFlight = Number(result.Attributes?.ApproximateNumberOfMessagesNotVisible ?? NaN);
          if (visible === 0 && inFlight === 0 && this.source.batchesInFlight() === 0) this.resolveWaiters(startedAt);
        },
        () => undefined, // the poll-based check still applies
      )
      .finally(() => {
        this.probing = false;
        if (this.probeAgain) {
          this.probeAgain = false;
          this.probe();
        }
      });
  }
}
