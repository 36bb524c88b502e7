/**
 * The local stand-in for EventBridge Scheduler: one in-process timer per scheduled job, invoking
 * the broadcast-scheduler function with `{ jobId }` at its time (as the one-time schedule does on
 * AWS), plus the sweep the rule runs every minute on AWS, here every second.
 *
 * Tests can make a trigger go missing (`dropFirings`) to see the sweep fire the job instead.
 */
import type { JobFiringScheduler } from '../shared/broadcast/ports';

type Invoke = (event: unknown) => Promise<unknown>;

/** Node timers overflow past 2^31-1 ms (~24.8 days); a longer wait is re-armed in steps. */
const MAX_TIMER_MS = 2_147_000_000;

export class LocalJobFiringScheduler implements JobFiringScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;
  private dropping = false;
  private stopped = false;
  /** Invocations not finished yet: stop() waits for them, so nothing of a stopped runtime runs or reports later. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly invoke: Invoke,
    private readonly onError: (error: unknown) => void = () => undefined,
    /** What "now" is (a test's shifted clock: a trigger fires when that clock reaches its time). */
    private readonly now: () => number = Date.now,
  ) {}

  async scheduleFiring(jobId: string, at: Date): Promise<void> {
    if (this.dropping || this.timers.has(jobId)) return;
    this.arm(jobId, at);
  }

  async cancelFiring(jobId: string): Promise<void> {
    clearTimeout(this.timers.get(jobId));
    this.timers.delete(jobId);
  }

  /** While on, triggers are accepted and lost (a missed trigger: only the sweep can fire the job). */
  dropFirings(drop: boolean): void {
    this.dropping = drop;
  }

  /** Runs the sweep every `intervalMs`, one at a time. */
  startSweep(intervalMs: number): void {
    this.sweepTimer = setInterval(() => {
      if (this.sweeping) return;
      this.sweeping = true;
      void this.track({ source: 'local.sweep', 'detail-type': 'Scheduled Event' }).finally(() => (this.sweeping = false));
    }, intervalMs);
    this.sweepTimer.unref();
  }

  /**
   * Stops the timers and waits for the invocations under way. Their failures after this point are
   * not reported: the backends are going away, and a line printed after a test file ended makes
   * jest fail the whole run ("Cannot log after tests are done").
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweepTimer);
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.all([...this.inFlight]);
  }

  private track(event: unknown): Promise<void> {
    const running = this.invoke(event).then(
      () => undefined,
      (error: unknown) => {
        if (!this.stopped) this.onError(error);
      },
    );
    this.inFlight.add(running);
    return running.finally(() => this.inFlight.delete(running));
  }

  private arm(jobId: string, at: Date): void {
    const wait = Math.max(0, at.getTime() - this.now());
    const timer = setTimeout(
      () => {
        this.timers.delete(jobId);
        if (wait > MAX_TIMER_MS) return this.arm(jobId, at);
        // A failed firing is left to the sweep, as EventBridge's retries and then the sweep are on AWS.
        if (!this.stopped) void this.track({ jobId });
      },
      Math.min(wait, MAX_TIMER_MS),
    );
    timer.unref();
    this.timers.set(jobId, timer);
  }
}
