/**
 * A counting semaphore for an event source's concurrency: a poll or a batch holds a slot; a
 * released slot passes straight to the oldest waiter.
 */
export class ConcurrencySlots {
  private inUse = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(private readonly max: number) {}

  /**
   * Resolves once a slot is this caller's.
   *
   * @example
   * await slots.acquire();
   * try { await work(); } finally { slots.release(); }
   */
  acquire(): Promise<void> {
    if (this.inUse < this.max) {
      this.inUse++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next)
      next(); // the slot passes straight to the waiter
    else this.inUse--;
  }

  /** Hands every waiter a slot at once (over the limit), so each can see that the source stops. */
  wakeAll(): void {
    for (const waiter of this.waiters.splice(0)) {
      this.inUse++;
      waiter();
    }
  }
}
