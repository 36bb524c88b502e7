/**
 * The capacity model's inputs (docs/SCALE.md "Lambda concurrency per function"): the peak load the
 * platform is sized for, how long each consumer holds an invocation, and the account's Lambda quota.
 * `capacity-model.ts` derives every queue consumer's concurrency ceiling from these, and the CDK app,
 * the local runtime and docs/SCALE.md read its figures; changing the sizing is an edit here.
 */
export interface CapacityInputs {
  /**
   * Lambda concurrent executions of the AWS account and region. AWS's default is 1,000, which the peak
   * below does not fit (the model needs ~1,270: the budget check fails at 1,000); docs/SCALE.md "Quotas to
   * raise" asks for 3,000 before a deployment takes this load. A smaller deployment lowers the load here.
   */
  accountConcurrencyQuota: number;
  broadcasts: {
    /** Business accounts draining a broadcast or campaign at the same time at peak (docs/SCALE.md "The load": ~130 at Meta's default 80/s). */
    drainingAccounts: number;
    /**
     * Chunk-worker invocations per draining account: the account's turn keeps one chunk sending,
     * and the next chunk's invocation overlaps it while it settles and re-queues; chunks that wait for
     * the turn hold an invocation while they re-queue. The scale simulation held 1.5 per account at its
     * ceiling with a backlog (2026-12-03, `--only=scale --scale-variant=lanes`); at 2 (2026-12-04, 40 s)
     * it peaks at its ceiling of 309 with every one of 140 accounts at ≥ 97.5 % of its tier.
     */
    invocationsPerAccount: number;
  };
  singleMessages: {
    /** Free-form, one-recipient and earlier sends queued per second at peak (5 % of 11,574 msg/s). */
    perSecond: number;
    /**
     * Messages the single-message lane's event source hands one invocation on average at peak (batch
     * size 10, no batching window). The simulation at 600/s (2026-12-04, 40 s) ran 24,058 messages in
     * 3,315 invocations, peaking at 135 of the 278 this input gives (it held its ceiling with a
     * backlog at an assumed 4): 2 errs on the safe side.
     */
    averageBatchFill: number;
    /** One invocation's wall time: Meta's answer (mean 291 ms, docs/PERFORMANCE.md 4e) + claim, outcome flush, settle and reconcile. */
    invocationSeconds: number;
  };
  deliveryEvents: {
    /** Meta status events per second at peak (3 per message: sent, delivered, read). */
    statusesPerSecond: number;
    /** CPU per applied status on a 512 MB function (~0.29 vCPU): 1.3 ms measured locally (docs/PERFORMANCE.md "Events"), i.e. ~4.5 ms of wall time there. */
    secondsPerStatus: number;
  };
  customerEvents: {
    /** Deliveries to customer endpoints per second at peak (about one status in ten is subscribed). */
    deliveriesPerSecond: number;
    /** One batch of 10 deliveries POSTed concurrently: the slowest call (each ≤ 10 s); the simulation's real dispatcher averaged ~460 ms. */
    batchSeconds: number;
    /** Never fewer: one organization's 10 dead endpoints hold at most 20 invocations, half of 40 (docs/CUSTOMER-WEBHOOKS.md "Fairness"). */
    fairnessFloor: number;
  };
  campaigns: {
    /** Campaigns expanding at once at peak: each holds one expander invocation at a time (it re-queues itself). */
    expandingAtOnce: number;
  };
  /** Functions no queue feeds, at peak (Little's law, docs/SCALE.md): they share the same account quota. */
  unqueuedPeak: {
    /** One per Meta webhook POST of ~20 statuses, ~20 ms each at 256 MB. */
    metaWebhook: number;
    /** 579 wrapped Cloud API calls/s x Meta's ~0.3 s. */
    upstreamWrapper: number;
    /** Accepts: ~600/s at ~60 ms. */
    broadcastSend: number;
    /** Status reads, keys, webhooks, campaigns, people, docs, console: together. */
    otherApi: number;
  };
}

/** The peak of docs/SCALE.md: 100 million messages a day across 1,000 organizations, 10x the average at peak. */
export const capacityInputs: CapacityInputs = {
  accountConcurrencyQuota: 3_000,
  broadcasts: { drainingAccounts: 130, invocationsPerAccount: 2 },
  singleMessages: { perSecond: 579, averageBatchFill: 2, invocationSeconds: 0.8 },
  deliveryEvents: { statusesPerSecond: 34_722, secondsPerStatus: 0.0045 },
  customerEvents: { deliveriesPerSecond: 3_472, batchSeconds: 0.46, fairnessFloor: 40 },
  campaigns: { expandingAtOnce: 10 },
  unqueuedPeak: { metaWebhook: 35, upstreamWrapper: 175, broadcastSend: 40, otherApi: 20 },
};
