/**
 * Runs callbacks at their due time, strictly in order of due time (ties in order of scheduling),
 * on one timer. Node's own timers do not promise that across different delays once the event loop
 * runs late, and a status must never overtake an earlier one unless reordering was asked for;
 * one heap also stays cheap with tens of thousands of statuses pending.
 */
import { performance } from 'node:perf_hooks';

interface Entry {
  due: number;
  sequence: number;
  run: () => void;
}

function before(a: Entry, b: Entry): boolean {
  return a.due < b.due || (a.due === b.due && a.sequence < b.sequence);
}

export class DueQueue {
  private readonly heap: Entry[] = [];
  private sequence = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerDue = Infinity;

  constructor(private readonly afterRun: () => void = () => undefined) {}

  get size(): number {
    return this.heap.length;
  }

  schedule(delayMs: number, run: () => void): void {
    this.push({ due: performance.now() + delayMs, sequence: this.sequence++, run });
    this.arm();
  }

  clear(): void {
    this.heap.length = 0;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDue = Infinity;
  }

  private arm(): void {
    const next = this.heap[0];
    if (next === undefined || next.due >= this.timerDue) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerDue = next.due;
    this.timer = setTimeout(() => this.fire(), Math.max(0, next.due - performance.now()));
  }

  private fire(): void {
    this.timer = undefined;
    this.timerDue = Infinity;
    const now = performance.now();
    while (this.heap.length > 0 && this.heap[0]!.due <= now) this.pop().run();
    this.arm();
    this.afterRun();
  }

  private push(entry: Entry): void {
    const heap = this.heap;
    heap.push(entry);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(heap[index]!, heap[parent]!)) break;
      [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
      index = parent;
    }
  }

  private pop(): Entry {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let index = 0;
      for (;;) {
        const left = index * 2 + 1;
        const right = left + 1;
        let smallest = index;
        if (left < heap.length && before(heap[left]!, heap[smallest]!)) smallest = left;
        if (right < heap.length && before(heap[right]!, heap[smallest]!)) smallest = right;
        if (smallest === index) break;
        [heap[index], heap[smallest]] = [heap[smallest]!, heap[index]!];
        index = smallest;
      }
    }
    return top;
  }
}
