/**
 * Virtual time for the scale simulation: the Clock port and the `sleep` the sending engine takes
 * (SendingPorts), plus timers for the models. Time jumps to the next timer once every promise
 * chain has run (one macrotask turn: the fakes and models never wait on real I/O), so two hours
 * of virtual time cost only the CPU of the work done in them.
 *
 * Unlike test/support VirtualTime (sorts its whole timer list per step), timers sit in a binary
 * heap: the full scenario has hundreds of thousands pending at once.
 */
import type { Clock } from '../../../shared/ports/clock';

interface Timer {
  at: number;
  sequence: number;
  fire: () => void;
}

/** A binary min-heap of timers by (at, sequence): equal instants fire in the order they were set (determinism). */
class TimerHeap {
  private readonly items: Timer[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Timer | undefined {
    return this.items[0];
  }

  push(timer: Timer): void {
    // Sift up by moving parents down into the hole (no swap arrays: this runs for every timer).
    const items = this.items;
    let index = items.length;
    items.push(timer);
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = items[parent]!;
      if (!before(timer, above)) break;
      items[index] = above;
      index = parent;
    }
    items[index] = timer;
  }

  pop(): Timer | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(start: number): void {
    const items = this.items;
    const moving = items[start]!;
    const length = items.length;
    let index = start;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      const child = right < length && before(items[right]!, items[left]!) ? right : left;
      if (!before(items[child]!, moving)) break;
      items[index] = items[child]!;
      index = child;
    }
    items[index] = moving;
  }
}

const before = (a: Timer, b: Timer): boolean => a.at < b.at || (a.at === b.at && a.sequence < b.sequence);

/** Let every pending promise chain run: one macrotask turn drains the microtask queue. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class VirtualScheduler implements Clock {
  private current: number;
  private sequence = 0;
  private readonly timers = new TimerHeap();
  /** Timers fired so far (the simulation's event count). */
  fired = 0;

  constructor(readonly startMs: number) {
    this.current = startMs;
  }

  now(): Date {
    return new Date(this.current);
  }

  nowMs(): number {
    return this.current;
  }

  /** Calls `fire` `delayMs` from now (at once, in order, when the delay is not positive). */
  at(delayMs: number, fire: () => void): void {
    this.timers.push({ at: this.current + Math.max(0, delayMs), sequence: (this.sequence += 1), fire });
  }

  /** The SendingPorts sleep: resolves `ms` of virtual time later. */
  readonly sleep = (ms: number): Promise<void> => new Promise((resolve) => this.at(ms, resolve));

  /**
   * Runs until virtual time reaches `untilMs` or nothing is left to do. Timers due at the same
   * instant fire together, then one macrotask turn lets what they woke run.
   */
  async runUntil(untilMs: number): Promise<void> {
    await settle();
    for (;;) {
      const next = this.timers.peek();
      if (!next || next.at > untilMs) break;
      this.current = Math.max(this.current, next.at);
      while (this.timers.peek()?.at === next.at) {
        this.timers.pop()!.fire();
        this.fired += 1;
      }
      await settle();
    }
    this.current = Math.max(this.current, Math.min(untilMs, this.timers.peek()?.at ?? untilMs));
  }
}
