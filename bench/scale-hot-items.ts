/**
 * The hottest DynamoDB items of a drain (`npm run bench -- --only=hot`, issue 28 item 7,
 * docs/SCALE.md): one broadcast at 1,000/s through the real handlers with Meta's `sent`,
 * `delivered` and `read` for every recipient (the cost bench's run, bench/broadcast-cost.ts, with
 * per-key write counting on: bench/lib/request-counter.ts `trackKeyWrites`). For every kind of item
 * (and every partition key) it keeps the most written one and prints:
 *
 * - writes and write units in all, and per 1,000 messages of the job: the item's sustained
 *   writes/s when its account sends 1,000 messages a second and the events keep up (the figure
 *   docs/SCALE.md scales; an account never sends faster than 1,000/s, Meta's highest tier);
 * - the most writes (and WCU) it took in one calendar second of this run, as measured here (one
 *   Node thread runs everything, so the drain reaches ~60 % of 1,000/s and the events lag behind).
 *
 * Model today's code: the ledger (claims, outcomes) and the events' tally writes are being changed
 * (issue 28 items 1 and 2); re-run this section after them and update docs/SCALE.md's table.
 */
import { benchBroadcastCost, type BroadcastCostRun } from './broadcast-cost';
import { hottestByKind, type HotKind } from './lib/hot-items';

export interface HotItemsResult {
  run: Omit<BroadcastCostRun, 'requestCounts' | 'hotKeys'>;
  achievedPerSecond: number;
  kinds: HotKind[];
}

export async function benchHotItems(options: {
  recipients: number;
  statusesPerPost: number;
  timeLimitSeconds: number;
  log: (line: string) => void;
}): Promise<HotItemsResult> {
  const run = await benchBroadcastCost({ ...options, ratePerSecond: 1000, trackKeyWrites: true, hotKeyCount: Number.POSITIVE_INFINITY });
  const { requestCounts: _counts, hotKeys, ...rest } = run;
  return {
    run: rest,
    achievedPerSecond: (run.sends.messages - 1) / run.sends.spanSeconds,
    kinds: hottestByKind(hotKeys ?? [], run.sends.messages),
  };
}
