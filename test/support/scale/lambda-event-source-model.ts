/**
 * A model of Lambda's SQS event source mapping and the function behind it: pollers pick up
 * visible messages after a short poll delay, in batches of `batchSize`, while fewer than the
 * allowed invocations run. The allowance is the mapping's `maximumConcurrency` reached at the
 * scale-up rate (AWS: +300 concurrent invocations a minute for SQS, from 5 pollers), and an
 * invocation without a warm environment first pays a cold start. The handler is real code or a
 * model; what it reports failed stays in flight until the visibility timeout (partial batch
 * responses). An invocation that overruns its timeout is counted, not killed (a promise cannot be).
 */
import { logNormal, type Random } from './seeded-random';
import type { QueuedMessage, SqsModel } from './sqs-model';
import type { VirtualScheduler } from './virtual-scheduler';

export interface EventSourceSettings {
  name: string;
  maxConcurrency: number;
  batchSize: number;
  timeoutMs: number;
  /** Concurrency the mapping starts with (SQS: 5 pollers). */
  initialConcurrency: number;
  /** Added per minute while messages wait (SQS: 300). */
  scaleUpPerMinute: number;
  coldStartMedianMs: number;
  /** Long-poll pickup delay of a visible message when pollers are idle. */
  pollDelayMs: number;
}

export interface Invocation {
  remainingTimeMs(): number;
}

/** What the handler did with its batch: the ids it failed (left for redelivery). */
export type BatchHandler<T> = (messages: readonly QueuedMessage<T>[], invocation: Invocation) => Promise<{ failedIds: readonly number[] }>;

export class LambdaEventSourceModel<T> {
  running = 0;
  peakRunning = 0;
  invocations = 0;
  coldStarts = 0;
  overruns = 0;
  handlerErrors = 0;
  private allowed: number;
  private warm = 0;
  private pollScheduled = false;
  private growthLookScheduled = false;
  private lastLookAt: number;

  constructor(
    private readonly time: VirtualScheduler,
    private readonly queue: SqsModel<T>,
    readonly settings: EventSourceSettings,
    private readonly handler: BatchHandler<T>,
    private readonly random: Random,
  ) {
    this.allowed = Math.min(settings.initialConcurrency, settings.maxConcurrency);
    this.lastLookAt = time.nowMs();
    queue.onVisible = () => this.schedulePoll();
  }

  /**
   * The concurrency the mapping may use now: it grows at the scale-up rate for as long as messages
   * wait (measured between looks: a backlog seen now is taken to have lasted since the last look).
   */
  private allowance(): number {
    const now = this.time.nowMs();
    if (this.queue.visibleCount > 0)
      this.allowed = Math.min(this.settings.maxConcurrency, this.allowed + ((now - this.lastLookAt) * this.settings.scaleUpPerMinute) / 60_000);
    this.lastLookAt = now;
    return Math.floor(this.allowed);
  }

  private schedulePoll(): void {
    if (this.pollScheduled) return;
    this.pollScheduled = true;
    this.time.at(this.settings.pollDelayMs, () => {
      this.pollScheduled = false;
      this.poll();
    });
  }

  private poll(): void {
    while (this.queue.visibleCount > 0 && this.running < this.allowance()) {
      const batch = this.queue.receive(this.settings.batchSize);
      if (batch.length === 0) return;
      this.start(batch);
    }
    // Blocked by the allowance: look again as it grows (a second later; one such look pending at a time).
    if (this.queue.visibleCount > 0 && this.running < this.settings.maxConcurrency && !this.growthLookScheduled) {
      this.growthLookScheduled = true;
      this.time.at(1000, () => {
        this.growthLookScheduled = false;
        this.schedulePoll();
      });
    }
  }

  private start(batch: Array<{ message: QueuedMessage<T>; receipt: number }>): void {
    this.running += 1;
    this.invocations += 1;
    this.peakRunning = Math.max(this.peakRunning, this.running);
    const cold = this.warm === 0;
    if (cold) this.coldStarts += 1;
    else this.warm -= 1;
    const coldMs = cold ? logNormal(this.random, this.settings.coldStartMedianMs, 0.4) : 0;
    this.time.at(coldMs, () => void this.invoke(batch));
  }

  private async invoke(batch: Array<{ message: QueuedMessage<T>; receipt: number }>): Promise<void> {
    const deadline = this.time.nowMs() + this.settings.timeoutMs;
    let failed: Set<number>;
    try {
      const result = await this.handler(
        batch.map((entry) => entry.message),
        { remainingTimeMs: () => deadline - this.time.nowMs() },
      );
      failed = new Set(result.failedIds);
    } catch {
      this.handlerErrors += 1;
      failed = new Set(batch.map((entry) => entry.message.id));
    }
    if (this.time.nowMs() > deadline) this.overruns += 1;
    for (const entry of batch) if (!failed.has(entry.message.id)) this.queue.delete(entry.message, entry.receipt);
    this.running -= 1;
    this.warm += 1;
    this.schedulePoll();
  }
}
