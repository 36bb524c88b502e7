/**
 * The scale simulation's parameters: the load (organizations, draining accounts, campaigns,
 * single messages, faults), the platform's shape (each event source's concurrency, whether single
 * messages have their own lane, fair queues) and the models' constants. Today's platform is the
 * default; the fixes of issue 40 (concurrency from the capacity model, a lane for single messages,
 * fair groups) are changes of these parameters plus real code.
 */
import type { EventSourceSettings } from './lambda-event-source-model';
import type { MetaModelSettings } from './meta-model';
import type { DynamoModelSettings } from './dynamo-model';
import { ledgerOutcomeBatching } from '../../../shared/adapters/dynamodb/ledger-page-items';
import type { ChunkWorkerSettings } from '../../../shared/broadcast/chunk-worker/chunk-worker-dependencies';
import { campaignExpander, chunkWorker, customerEventsDispatcher } from '../../../runtime-contract/resource-definitions';
import type { CustomerEventsLoad } from './customer-events-model';

export interface ScaleLoad {
  seed: number;
  /** Virtual seconds during which load arrives; then `drainSeconds` more with no new load. */
  arrivalSeconds: number;
  drainSeconds: number;
  organizations: number;
  /** Accounts (one organization each) draining back-to-back broadcasts of `broadcastRecipients`. */
  drainingAccounts: number;
  broadcastRecipients: number;
  /** The tier rate of every account (Meta's default: 80 messages/s). */
  accountRate: number;
  campaigns: number;
  /**
   * Members of each campaign's audience. Scaled: the scenario's campaigns have 1,000,000 each, but
   * the real expander reads, claims and appends every one of them, which for 10 campaigns does not fit
   * in 5 minutes here; FULL_CAMPAIGN_MEMBERS is the scenario's figure, the default is 20,000.
   */
  campaignMembers: number;
  singlesPerSecond: number;
  /** Organizations whose Meta answers are sometimes lost (the injected faults), the first ones. */
  faultedOrganizations: number;
  /** Who subscribes to customer events, and the organization whose endpoints all fail. */
  customerEvents: CustomerEventsLoad;
}

export interface ScalePlatform {
  chunkWorker: EventSourceSettings;
  /** Absent: single messages share the chunk worker's queue (today). Present: their own queue and worker. */
  singleLane?: EventSourceSettings;
  deliveryEvents: EventSourceSettings;
  /** The customer-events dispatcher's mapping (runtime-contract: batches of 10, 40 at most, 30 s). */
  customerEvents: EventSourceSettings;
  /** The campaign expander's mapping (runtime-contract: one message a batch, 60 s, the capacity model's ceiling). */
  campaignExpander: EventSourceSettings;
  /** Messages carry their organization as MessageGroupId on fair queues. */
  fairQueues: boolean;
  worker: ChunkWorkerSettings;
  /** The account's Lambda concurrency quota (default 1,000). */
  accountConcurrencyQuota: number;
}

export interface ScaleModels {
  meta: Omit<MetaModelSettings, 'faultedNumbers'>;
  dynamo: DynamoModelSettings;
  /** A request's own time (the broadcast accept, modelled whole; the campaign launch's before its real store calls). */
  acceptMs: number;
  visibilityTimeoutMs: number;
}

export interface ScaleSettings {
  load: ScaleLoad;
  platform: ScalePlatform;
  models: ScaleModels;
}

/**
 * The chunk worker's and delivery-events' event source ceilings as deployed before issue 40 (a fixed
 * 20 each for the whole platform): the "today" variant shows that wall; the `lanes` variant reads the
 * capacity model's (runtime-contract/capacity-model.ts).
 */
export const PRE_MODEL_CEILING = 20;
/** The customer-events dispatcher's fixed ceiling before issue 40 (now the capacity model's, never below it). */
export const PRE_MODEL_DISPATCHER_CEILING = 40;

const eventSource = (name: string, maxConcurrency: number, batchSize: number, timeoutMs: number): EventSourceSettings => ({
  name,
  maxConcurrency,
  batchSize,
  timeoutMs,
  initialConcurrency: 5,
  scaleUpPerMinute: 300,
  coldStartMedianMs: 400,
  pollDelayMs: 20,
});

/** Members per campaign in the scenario of issue 40. */
export const FULL_CAMPAIGN_MEMBERS = 1_000_000;
/** Members per campaign by default: what the real expander gets through for 10 campaigns within the bench's 5 minutes. */
export const SCALED_CAMPAIGN_MEMBERS = 20_000;

/** The scenario of issue 40 at full size (but for the campaigns' members: SCALED_CAMPAIGN_MEMBERS), on today's platform (its figures show today's wall). */
export function fullScaleSettings(seed = 40): ScaleSettings {
  return {
    load: {
      seed,
      arrivalSeconds: 7_200,
      drainSeconds: 0,
      organizations: 1_000,
      drainingAccounts: 130,
      broadcastRecipients: 5_000,
      accountRate: 80,
      campaigns: 10,
      campaignMembers: SCALED_CAMPAIGN_MEMBERS,
      singlesPerSecond: 600,
      faultedOrganizations: 1,
      // One organization in 10 subscribes; org_1 (a draining account: 240 statuses a second) has 10 endpoints that never answer.
      customerEvents: { subscriberEvery: 10, failingOrganization: 1, failingEndpoints: 10, endpointMedianMs: 120 },
    },
    platform: {
      // The mappings as deployed before issue 40 (batch sizes and timeouts are today's).
      chunkWorker: eventSource('chunk-worker', PRE_MODEL_CEILING, chunkWorker.batchSize, chunkWorker.timeoutSeconds * 1000),
      deliveryEvents: eventSource('delivery-events', PRE_MODEL_CEILING, 10, 60_000),
      customerEvents: eventSource(
        'customer-events',
        PRE_MODEL_DISPATCHER_CEILING,
        customerEventsDispatcher.batchSize,
        customerEventsDispatcher.timeoutSeconds * 1000,
      ),
      // Its ceiling came from the capacity model before issue 40 too (issue 37): one invocation per campaign expanding at once.
      campaignExpander: eventSource('campaign-expander', campaignExpander.maxConcurrency, campaignExpander.batchSize, campaignExpander.timeoutSeconds * 1000),
      fairQueues: false,
      worker: {
        maxInFlight: 512,
        minInFlight: 16,
        latencyPriorMs: 500,
        maxAttempts: 6,
        backoff: { baseMs: 200, maxMs: 5_000 },
        rateLimitHoldMs: 1_000,
        safetyMarginMs: 15_000,
        upstreamTimeoutMs: 15_000,
        // The deployed worker's batching, so flushes come as they do on AWS.
        ...ledgerOutcomeBatching,
        flushIntervalMs: 250,
        pauseRecheckSeconds: 60,
        templatePauseTimeoutMs: 3 * 3_600_000,
      },
      accountConcurrencyQuota: 1_000,
    },
    models: {
      meta: { latencyMedianMs: 250, latencySigma: 0.3, tailShare: 0.01, tailMedianMs: 2_000, burstSeconds: 1, faultShare: 0.01 },
      dynamo: { wcuPerPartitionKey: 1_000, roundTripMedianMs: 6 },
      acceptMs: 60,
      visibilityTimeoutMs: 6 * chunkWorker.timeoutSeconds * 1000,
    },
  };
}

/**
 * The reduced scenario of the unit test: a few accounts and organizations, seconds of virtual
 * time, then a drain until every message is settled (so "lost" can be judged absolutely).
 *
 * @example
 * const settings = reducedScaleSettings(7);
 */
export function reducedScaleSettings(seed = 7): ScaleSettings {
  const full = fullScaleSettings(seed);
  return {
    ...full,
    load: {
      ...full.load,
      arrivalSeconds: 25,
      drainSeconds: 600,
      organizations: 20,
      drainingAccounts: 3,
      broadcastRecipients: 1_500,
      campaigns: 1,
      campaignMembers: 3_000,
      singlesPerSecond: 8,
      // Five subscribers (org_0, 4, 8, 12, 16) beside org_1, a draining account whose 2 endpoints never answer (480 deliveries a second).
      customerEvents: { ...full.load.customerEvents, subscriberEvery: 4, failingEndpoints: 2 },
    },
    // More lost answers than the full scenario's 1 %: a small run still injects a few faults.
    models: { ...full.models, meta: { ...full.models.meta, faultShare: 0.02 } },
  };
}
