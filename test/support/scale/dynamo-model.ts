/**
 * A model of DynamoDB's per-partition write limit under the in-memory stores: every write a store
 * call would make is charged to its partition key (1 WCU per item, per second of virtual time); a
 * partition key past 1,000 WCU in a second is throttled, and the call waits as the adapters' SDK
 * retries would (exponential backoff until the next second has room). Every call also takes a
 * store round trip. The in-memory stores then do the real conditional logic.
 */
import { logNormal, type Random } from './seeded-random';
import type { VirtualScheduler } from './virtual-scheduler';

export interface DynamoModelSettings {
  wcuPerPartitionKey: number;
  roundTripMedianMs: number;
}

/** A partition key's writes: this second's, its busiest second's, all of them. */
interface KeyLoad {
  second: number;
  inSecond: number;
  peak: number;
  total: number;
}

export class DynamoModel {
  private readonly loads = new Map<string, KeyLoad>();
  throttles = 0;
  calls = 0;

  constructor(
    private readonly time: VirtualScheduler,
    readonly settings: DynamoModelSettings,
    private readonly random: Random,
  ) {}

  /** One store call: a round trip, then its writes charged (and throttled) per partition key. */
  async call(writes: ReadonlyArray<{ key: string; units: number }>): Promise<void> {
    this.calls += 1;
    await this.time.sleep(logNormal(this.random, this.settings.roundTripMedianMs, 0.3));
    // Most writes fit their second: charged without a promise each (the simulation's hottest path).
    for (const write of writes) if (!this.tryCharge(write.key, write.units)) await this.charge(write.key, write.units);
  }

  /** Charges writes that happen outside a store proxy (the modelled delivery events). */
  async charge(key: string, units: number): Promise<void> {
    for (let attempt = 1; !this.tryCharge(key, units); attempt += 1) {
      // Throttled: the SDK retries with backoff (25 ms doubling, jittered) until a second has room.
      this.throttles += 1;
      await this.time.sleep(25 * 2 ** Math.min(attempt, 6) * (0.5 + this.random() / 2));
    }
  }

  /** The writes charged when this second has room for them (or they exceed a second's on their own); false when throttled. */
  private tryCharge(key: string, units: number): boolean {
    const load = this.loadOf(key);
    if (load.inSecond + units > this.settings.wcuPerPartitionKey && units <= this.settings.wcuPerPartitionKey) return false;
    load.inSecond += units;
    load.total += units;
    if (load.inSecond > load.peak) load.peak = load.inSecond;
    return true;
  }

  private loadOf(key: string): KeyLoad {
    const second = Math.floor(this.time.nowMs() / 1000);
    let load = this.loads.get(key);
    if (!load) {
      load = { second, inSecond: 0, peak: 0, total: 0 };
      this.loads.set(key, load);
    }
    if (load.second !== second) {
      load.second = second;
      load.inSecond = 0;
    }
    return load;
  }

  /** The hottest partition keys by their busiest second (WCU/s), then by total. */
  hottest(count: number, durationSeconds: number): Array<{ key: string; peakWcuPerSecond: number; meanWcuPerSecond: number }> {
    return [...this.loads.entries()]
      .sort((a, b) => b[1].peak - a[1].peak || b[1].total - a[1].total || (a[0] < b[0] ? -1 : 1))
      .slice(0, count)
      .map(([key, load]) => ({ key, peakWcuPerSecond: load.peak, meanWcuPerSecond: load.total / Math.max(1, durationSeconds) }));
  }
}

/** Which partition keys a store method writes, and how many items: the messaging table's key layout (docs/DATA-MODEL.md). */
export function writesOf(method: string, args: readonly unknown[]): Array<{ key: string; units: number }> {
  // createJob names its job in the job itself.
  const jobKey = `JOB#${typeof args[0] === 'object' && args[0] !== null ? String((args[0] as { jobId?: unknown }).jobId) : String(args[0])}`;
  const ledgerKey = `LEDGER#${String(args[0])}#${String(args[1])}`;
  const count = (value: unknown) => (Array.isArray(value) ? value.length : 1);
  switch (method) {
    case 'claimRecipients':
      return [{ key: ledgerKey, units: count(args[2]) }];
    case 'claimRecipient':
    case 'releaseClaim':
    case 'markStaleAsUnknown':
      return [{ key: ledgerKey, units: 1 }];
    case 'recordOutcomes':
      // The outcomes on the ledger, and one tally-code update per 50-recipient tally item touched.
      return [
        { key: ledgerKey, units: count(args[2]) },
        { key: jobKey, units: Math.ceil(count(args[2]) / 50) },
      ];
    case 'createJob':
    case 'appendChunks':
      return [{ key: jobKey, units: 1 + count(args[args.length - 2]) }];
    case 'markChunkStarted':
    case 'addChunkProgress':
    case 'reconcileChunk':
    case 'closeExpansion':
    case 'pauseJob':
    case 'resumeJob':
    case 'cancelJob':
    case 'refuseCountry':
      return [{ key: jobKey, units: 1 }];
    case 'reserve':
    case 'holdUntil':
    case 'takeTurn':
      return [{ key: `PACE#${String(args[0])}`, units: 1 }];
    default:
      return [];
  }
}

/**
 * Wraps a store so each method call goes through the model first (round trip, writes charged),
 * then runs on the in-memory store. Properties that are not functions pass through.
 *
 * @example
 * const broadcasts = meteredStore(new InMemoryBroadcastRepository(), dynamo);
 */
export function meteredStore<S extends object>(store: S, dynamo: DynamoModel): S {
  // One wrapper per method, made at its first use (a new closure per property read was a large share of the garbage).
  const wrappers = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let wrapper = wrappers.get(property);
      if (!wrapper) {
        wrapper = async (...args: unknown[]) => {
          await dynamo.call(writesOf(property, args));
          return (value as (...inner: unknown[]) => unknown).apply(target, args);
        };
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}
