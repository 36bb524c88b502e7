/**
 * The figures issue 40 asks of the simulation: per-account send rate against its tier, single
 * messages' time from accept to Meta, the hottest partition keys, Lambda concurrency per function
 * against the quota, and exactly-once.
 */
import type { ExactlyOnceCounts } from './exactly-once';

export interface AccountRate {
  account: string;
  tierPerSecond: number;
  sentPerSecond: number;
  /** sentPerSecond / tier over the measured window. */
  ofTier: number;
}

/** Publish to endpoint, first arrival. */
export interface EventLatencies {
  delivered: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface ScaleFigures {
  seed: number;
  virtualSeconds: number;
  wallSeconds: number;
  /** The process's CPU seconds for the run (the wall time depends on the machine's other load). */
  cpuSeconds: number;
  events: number;
  accountRates: {
    accounts: number;
    /** Accounts at >= 95 % of their tier over the window. */
    atGoal: number;
    min: number;
    median: number;
    worst: AccountRate[];
  };
  singles: {
    accepted: number;
    /** Reached Meta before the run ended. */
    reached: number;
    p50Ms: number;
    p99Ms: number;
    maxMs: number;
  };
  hottestKeys: Array<{ key: string; peakWcuPerSecond: number; meanWcuPerSecond: number }>;
  throttledWrites: number;
  lambda: Array<{ name: string; peak: number; max: number; invocations: number; coldStarts: number; overruns: number }>;
  lambdaPeakSum: number;
  accountConcurrencyQuota: number;
  queues: Array<{ name: string; sent: number; redelivered: number; deadLettered: number; backlogAtEnd: number }>;
  meta: { taken: number; refused130429: number; webhookPosts: number; statuses: number; statusesApplied: number };
  /** The real campaign expander's invocations that threw (on SQS they would come back; here a failure is a defect to see), and the first one's message. */
  expander: { failures: number; firstFailure?: string };
  /** The real dispatcher: other organizations' deliveries (publish to endpoint) while one organization's endpoints never answer. */
  customerEvents: {
    published: number;
    othersDelivered: number;
    /** Other organizations' events not delivered by the end. */
    othersPending: number;
    /** Quiet organizations (single messages only) and busy ones (draining: ~240 events a second to one endpoint). */
    quiet: EventLatencies;
    busy: EventLatencies;
    /** Calls to the failing organization's endpoints (each lasts its timeout), and its deliveries given up. */
    failingCalls: number;
    failingDeadLettered: number;
    /** Deliveries re-queued (breaker open, slots taken, retry scheduled). */
    requeued: number;
  };
  exactlyOnce: ExactlyOnceCounts;
}

/**
 * The value at quantile `q` (0..1) of `values` (sorted here); Infinity stands for "never reached".
 *
 * @example
 * quantile([1, 2, 3, 4], 0.5); // 2
 */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
