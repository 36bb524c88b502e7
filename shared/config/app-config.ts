/**
 * Run-time configuration, parsed once from an environment map with a valibot schema.
 *
 * The functions take the map as an argument (each function's `.lambda.ts` passes process.env,
 * the local runtime passes the function's own variables) so domain code never reads the
 * environment itself. Endpoints are plain settings: the same code talks to AWS, LocalStack or
 * the local emulators depending only on them. Every error names the variable it is about.
 */
import * as v from 'valibot';
import type { FunctionName } from '../../runtime-contract/resource-definitions';
import { queues, type QueueName } from '../../runtime-contract/queue-definitions';
import { tables, type TableName } from '../../runtime-contract/table-definitions';
import type { CustomerEventDeliverySettings } from '../customer-events/retry-schedule';
import { optOutKeywordsOf, type OptOutKeywords } from '../inbox/opt-outs';
import type { SendPolicySettings } from '../sending/send-policy';
import { ConfigurationError } from './errors';
import { settingsSchema, type Settings } from './settings.schema';

/** Replaced by esbuild's `define` in bundles (lib/constructs/required-variables-define.ts): the function's required variables as JSON text; undefined unbundled. */
declare const __REQUIRED_VARIABLES__: string | undefined;

type ResourceDefinitionsModule = typeof import('../../runtime-contract/resource-definitions');

export { ConfigurationError } from './errors';

/** An OpenID Connect issuer whose people may sign in; `userInfo`: resolve an access token without an email claim at its userinfo endpoint (Cognito). */
export interface PeopleIssuer {
  issuer: string;
  audience: string;
  userInfo?: boolean;
}

export interface AppConfig {
  serviceName: string;
  serviceVersion: string;
  region: string;
  /**
   * X-Ray tracing of the SDK clients: inside Lambda (AWS_EXECUTION_ENV) unless
   * POWERTOOLS_TRACE_ENABLED=false, as Powertools decides. Elsewhere the tracer is never loaded:
   * its X-Ray SDK installs a process-wide async hook (cls-hooked) that makes every promise about
   * 25x dearer (docs/PERFORMANCE.md section 4g).
   */
  tracingEnabled: boolean;
  /** Per-service endpoint overrides; undefined means the SDK's default (real AWS). */
  endpoints: { dynamodb?: string; sqs?: string; kms?: string; apiGateway?: string; scheduler?: string };
  /** '' for a table the environment does not name (requireSetting fails on first use). */
  tableNames: Record<TableName, string>;
  queueUrls: Record<QueueName, string>;
  /** Dead-letter queues the operators' replay commands drain (META_EVENTS_DEAD_LETTER_QUEUE_URL); no function reads them. */
  deadLetterQueueUrls: { metaEvents?: string };
  upstream: { baseUrl: string; version: string; timeoutMs: number };
  /** DynamoDB's answer time limit per request (STORE_REQUEST_TIMEOUT_MS, default 2,000). */
  store: { requestTimeoutMs: number };
  /** Tracked links (docs/OUTCOMES.md "Tracked links"): the redirect's base URL (CLICK_BASE_URL); absent: no template button is a tracked link. */
  clicks: { baseUrl?: string };
  /** Upstream access tokens are encrypted with KMS when a key id is set, otherwise with a local AES key. */
  tokenEncryption: { kind: 'kms'; keyId: string } | { kind: 'local'; keyBase64: string } | { kind: 'unconfigured' };
  /** API Gateway usage plans that keys issued at run time join; absent locally (the local gateway reads the key store). */
  usagePlans: { broadcastUsagePlanId?: string };
  sending: {
    /** Pace of a business account with no rate of its own (the contract: about 30 messages/s). */
    defaultMessagesPerSecond: number;
    /** How long template lists read from the Cloud API are reused. */
    templateCacheTtlMs: number;
  };
  /** The /upstream wrapper (docs/UPSTREAM-WRAPPER.md). Retries and backoff of bulk sends follow `sendPolicy`. */
  upstreamWrapper: {
    /** Recipients per bulk-send call. */
    bulkMaxRecipients: number;
    /** No bulk send starts later than this after the request arrived (inside API Gateway's 29 s). */
    bulkBudgetMs: number;
    bulkConcurrency: number;
    /** How long an account's template and flow id lists are reused for ownership checks. */
    ownedIdsTtlMs: number;
  };
  /**
   * In-memory caches of tenancy reads (shared/tenancy/tenancy-read-cache.ts; read through only by
   * the /upstream wrapper) and of decrypted upstream tokens (every function that decrypts).
   * docs/UPSTREAM-WRAPPER.md, "Caches", explains each time to live.
   */
  tenancyCache: {
    /** A key revoked in another process keeps working here for at most this long. */
    credentialTtlMs: number;
    /** Organizations, business accounts, phone numbers. */
    recordTtlMs: number;
    /** Entries per kind of record. */
    maxEntries: number;
    /** Decrypted upstream tokens (keyed by ciphertext: a rotated token misses at once). */
    decryptedTokenTtlMs: number;
  };
  /** Live keys minted by generate-key per organization (the Region's API key quota is shared by every tenant). */
  generatedKeysPerOrganization: number;
  /**
   * Retries, backoff and the rate-limit hold of every send (chunk worker and /upstream bulk send;
   * shared/sending/send-policy.ts). The variables keep their WORKER_ names.
   */
  sendPolicy: SendPolicySettings;
  /** Reading delivery status (shared/delivery/recipient-status.ts). */
  delivery: {
    /** An unknown send outcome no event resolved within this long reads UNCONFIRMED (UNCONFIRMED_AFTER_HOURS, default 24). */
    unconfirmedAfterMs: number;
  };
  /** Deliveries of customer events to webhook endpoints (docs/CUSTOMER-WEBHOOKS.md). */
  customerEvents: CustomerEventDeliverySettings;
  /**
   * Customer webhooks may use http and reach loopback receivers (docs/CUSTOMER-WEBHOOKS.md). True
   * only in the local runtime (it sets CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK=1, as for deliveries); never on AWS.
   */
  allowInsecureLocalReceivers: boolean;
  /**
   * Whole-message keywords that put a customer on the organization's opt-out list or take them off
   * (OPT_OUT_KEYWORDS / OPT_IN_KEYWORDS, comma-separated; unset: the defaults of shared/inbox/opt-outs.ts).
   */
  optOutKeywords: OptOutKeywords;
  /** Meta's webhook endpoint: the only source ranges it hears (META_WEBHOOK_SOURCE_RANGES; empty: every address). */
  metaWebhook: { sourceRanges: readonly string[] };
  /** Scheduled broadcasts (docs/BROADCAST.md "Scheduling"). */
  scheduling: {
    /** The earliest a broadcast may be scheduled, from now (BROADCAST_SCHEDULE_MIN_LEAD_SECONDS, default 300). */
    minLeadSeconds: number;
    /** The sweep fires a job still due this long past its time (BROADCAST_SCHEDULE_SWEEP_GRACE_SECONDS, default 30). */
    sweepGraceMs: number;
    /** EventBridge Scheduler: the schedule group, the role it assumes and the function it invokes (AWS only). */
    scheduleGroup?: string;
    schedulerRoleArn?: string;
    targetFunctionArn?: string;
  };
  /**
   * The campaign expander (docs/CAMPAIGNS.md "Scheduling"): its longest delay when it re-queues itself
   * to wait (CAMPAIGN_EXPANSION_MAX_DELAY_SECONDS, default and at most 900, SQS's limit); a wait is
   * re-queued until due, so tests with a controllable clock shorten it to a second.
   */
  campaigns: {
    expansionMaxDelaySeconds: number;
    /** The canary's looks while its slice settles and is observed (CANARY_RECHECK_SECONDS, default 60) and between looks of the running halt thresholds (HALT_CHECK_SECONDS, default 300). */
    canaryRecheckSeconds: number;
    haltCheckSeconds: number;
  };
  /**
   * The organization's contact policy (docs/CAMPAIGNS.md "Frequency caps"): how long a container
   * keeps the policy it read (CONTACT_POLICY_CACHE_SECONDS, default 60): a changed cap applies within it.
   */
  contactPolicy: { cacheMs: number };
  /**
   * People's sign-in (docs/PEOPLE.md): the OpenID Connect issuers whose tokens the API accepts
   * (PEOPLE_OIDC_ISSUERS; each with the audience its tokens carry, the console's client id) and the
   * console's idle sign-out (CONSOLE_IDLE_MINUTES).
   */
  people: { issuers: readonly PeopleIssuer[]; idleMinutes: number };
  /**
   * Where invited people get their sign-in accounts (docs/PEOPLE.md "People"): the stack's Cognito
   * user pool (PEOPLE_USER_POOL_ID), else the local OIDC provider's admin endpoint
   * (LOCAL_IDENTITY_ADMIN_URL + LOCAL_IDENTITY_ADMIN_SECRET), else none (external issuers).
   */
  identityAccounts: { userPoolId?: string; localAdminUrl?: string; localAdminSecret?: string };
  /** Chunk-worker tuning; defaults suit Meta's latency, tests shorten the waits. */
  worker: {
    /** The in-flight budget's cap (WORKER_MAX_IN_FLIGHT, default 512) and floor (WORKER_MIN_IN_FLIGHT, default 16). */
    maxInFlight: number;
    minInFlight: number;
    /** A lane's busy time per send assumed until sends report back (WORKER_LATENCY_PRIOR_MS, default 500). */
    latencyPriorMs: number;
    safetyMarginMs: number;
    /** While a job's template is paused, its held recipients are looked at again this often (SQS delay, ≤ 900 s). */
    pauseRecheckSeconds: number;
    /** A job whose template is not approved again within this long fails its remaining recipients TEMPLATE_PAUSED. */
    templatePauseTimeoutMs: number;
    /** Recipients waiting for their send window or a frequency cap are looked at again at most this often (SEND_WINDOW_RECHECK_SECONDS, default 900). */
    waitingRecheckSeconds: number;
  };
}

export type Environment = Readonly<Record<string, string | undefined>>;

function parseSettings<TSchema extends v.GenericSchema>(schema: TSchema, env: Environment): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, env);
  if (!result.success) throw new ConfigurationError(result.issues.map((issue) => issue.message).join('; '));
  return result.output;
}

/** The whole application's configuration: resources the environment does not name are '' (checked on use). */
export function parseAppConfig(env: Environment): AppConfig {
  const settings = parseSettings(settingsSchema, env);
  const tableNames = Object.fromEntries(Object.values(tables).map((table) => [table.name, env[table.envVar] ?? ''])) as Record<TableName, string>;
  const queueUrls = Object.fromEntries(Object.values(queues).map((queue) => [queue.name, env[queue.envVar] ?? ''])) as Record<QueueName, string>;
  const tokenEncryption: AppConfig['tokenEncryption'] = settings.TOKEN_KMS_KEY_ID
    ? { kind: 'kms', keyId: settings.TOKEN_KMS_KEY_ID }
    : settings.LOCAL_TOKEN_KEY
      ? { kind: 'local', keyBase64: settings.LOCAL_TOKEN_KEY }
      : { kind: 'unconfigured' };

  return {
    serviceName: settings.SERVICE_NAME,
    serviceVersion: settings.SERVICE_VERSION,
    region: settings.AWS_REGION ?? settings.AWS_DEFAULT_REGION ?? 'us-east-1',
    tracingEnabled: settings.AWS_EXECUTION_ENV !== undefined && settings.POWERTOOLS_TRACE_ENABLED?.toLowerCase() !== 'false',
    endpoints: {
      dynamodb: settings.DYNAMODB_ENDPOINT,
      sqs: settings.SQS_ENDPOINT,
      kms: settings.KMS_ENDPOINT,
      apiGateway: settings.APIGATEWAY_ENDPOINT,
      scheduler: settings.SCHEDULER_ENDPOINT,
    },
    tableNames,
    queueUrls,
    deadLetterQueueUrls: { metaEvents: settings.META_EVENTS_DEAD_LETTER_QUEUE_URL },
    upstream: { baseUrl: settings.GRAPH_API_BASE_URL, version: settings.GRAPH_API_VERSION, timeoutMs: settings.UPSTREAM_TIMEOUT_MS },
    store: { requestTimeoutMs: settings.STORE_REQUEST_TIMEOUT_MS },
    clicks: { baseUrl: settings.CLICK_BASE_URL },
    tokenEncryption,
    usagePlans: { broadcastUsagePlanId: settings.BROADCAST_USAGE_PLAN_ID },
    sending: {
      defaultMessagesPerSecond: settings.DEFAULT_MESSAGES_PER_SECOND,
      templateCacheTtlMs: settings.TEMPLATE_CACHE_TTL_MS,
    },
    upstreamWrapper: {
      bulkMaxRecipients: settings.UPSTREAM_BULK_MAX_RECIPIENTS,
      bulkBudgetMs: settings.UPSTREAM_BULK_BUDGET_MS,
      bulkConcurrency: settings.UPSTREAM_BULK_CONCURRENCY,
      ownedIdsTtlMs: settings.UPSTREAM_OWNED_IDS_TTL_MS,
    },
    tenancyCache: {
      credentialTtlMs: settings.TENANCY_CACHE_CREDENTIAL_TTL_MS,
      recordTtlMs: settings.TENANCY_CACHE_RECORD_TTL_MS,
      maxEntries: settings.TENANCY_CACHE_MAX_ENTRIES,
      decryptedTokenTtlMs: settings.DECRYPTED_TOKEN_CACHE_TTL_MS,
    },
    generatedKeysPerOrganization: settings.GENERATED_KEYS_PER_ORGANIZATION,
    sendPolicy: {
      maxAttempts: settings.WORKER_MAX_ATTEMPTS,
      backoff: { baseMs: settings.WORKER_BACKOFF_BASE_MS, maxMs: settings.WORKER_BACKOFF_MAX_MS },
      rateLimitHoldMs: settings.WORKER_RATE_LIMIT_HOLD_MS,
    },
    delivery: { unconfirmedAfterMs: Math.round(settings.UNCONFIRMED_AFTER_HOURS * 3_600_000) },
    customerEvents: customerEventsConfigOf(settings),
    allowInsecureLocalReceivers: settings.CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK,
    optOutKeywords: optOutKeywordsOf(settings.OPT_OUT_KEYWORDS, settings.OPT_IN_KEYWORDS),
    metaWebhook: { sourceRanges: settings.META_WEBHOOK_SOURCE_RANGES },
    scheduling: {
      minLeadSeconds: settings.BROADCAST_SCHEDULE_MIN_LEAD_SECONDS,
      sweepGraceMs: settings.BROADCAST_SCHEDULE_SWEEP_GRACE_SECONDS * 1000,
      scheduleGroup: settings.BROADCAST_SCHEDULE_GROUP,
      schedulerRoleArn: settings.BROADCAST_SCHEDULER_ROLE_ARN,
      targetFunctionArn: settings.BROADCAST_SCHEDULER_TARGET_ARN,
    },
    campaigns: {
      expansionMaxDelaySeconds: Math.min(900, settings.CAMPAIGN_EXPANSION_MAX_DELAY_SECONDS),
      canaryRecheckSeconds: settings.CANARY_RECHECK_SECONDS,
      haltCheckSeconds: settings.HALT_CHECK_SECONDS,
    },
    contactPolicy: { cacheMs: settings.CONTACT_POLICY_CACHE_SECONDS * 1000 },
    people: { issuers: settings.PEOPLE_OIDC_ISSUERS, idleMinutes: settings.CONSOLE_IDLE_MINUTES },
    identityAccounts: {
      userPoolId: settings.PEOPLE_USER_POOL_ID,
      localAdminUrl: settings.LOCAL_IDENTITY_ADMIN_URL,
      localAdminSecret: settings.LOCAL_IDENTITY_ADMIN_SECRET,
    },
    worker: workerConfigOf(settings),
  };
}

/** Chunk-worker tuning (AppConfig['worker']). */
function workerConfigOf(settings: Settings): AppConfig['worker'] {
  return {
    maxInFlight: settings.WORKER_MAX_IN_FLIGHT,
    minInFlight: settings.WORKER_MIN_IN_FLIGHT,
    latencyPriorMs: settings.WORKER_LATENCY_PRIOR_MS,
    safetyMarginMs: settings.WORKER_SAFETY_MARGIN_MS,
    pauseRecheckSeconds: settings.PAUSE_RECHECK_SECONDS,
    templatePauseTimeoutMs: Math.round(settings.TEMPLATE_PAUSE_TIMEOUT_MINUTES * 60_000),
    waitingRecheckSeconds: settings.SEND_WINDOW_RECHECK_SECONDS,
  };
}

/** Customer-event delivery: retries, timeouts and each endpoint's fair share (docs/CUSTOMER-WEBHOOKS.md). */
function customerEventsConfigOf(settings: Settings): AppConfig['customerEvents'] {
  return {
    retryWindowMs: settings.CUSTOMER_EVENT_RETRY_HOURS * 3_600_000,
    backoffBaseMs: settings.CUSTOMER_EVENT_BACKOFF_BASE_MS,
    backoffCapMs: settings.CUSTOMER_EVENT_BACKOFF_CAP_MS,
    timeoutMs: settings.CUSTOMER_EVENT_TIMEOUT_MS,
    localMode: settings.CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK,
    fairness: {
      concurrency: settings.CUSTOMER_EVENT_ENDPOINT_CONCURRENCY,
      burstConcurrency: settings.CUSTOMER_EVENT_ENDPOINT_BURST_CONCURRENCY,
      slotBudgetMs: settings.CUSTOMER_EVENT_ENDPOINT_SLOT_BUDGET_MS,
      organizationConcurrency: settings.CUSTOMER_EVENT_ORGANIZATION_CONCURRENCY,
      failingTimeoutMs: settings.CUSTOMER_EVENT_FAILING_TIMEOUT_MS,
      breakerThreshold: settings.CUSTOMER_EVENT_BREAKER_THRESHOLD,
      breakerBaseMs: settings.CUSTOMER_EVENT_BREAKER_BASE_MS,
      breakerCapMs: settings.CUSTOMER_EVENT_BREAKER_CAP_MS,
    },
    redeliveriesPerDay: settings.CUSTOMER_EVENT_REDELIVERIES_PER_DAY,
  };
}

/**
 * One function's configuration, parsed at its init: the tables and queues its resource definition
 * grants must be named (a missing one fails the cold start with the variable's name, not the
 * first request); the ones it is not granted stay '' so reaching for them fails as on AWS.
 */
export function parseFunctionConfig(name: FunctionName, env: Environment): AppConfig {
  const missing = requiredVariablesOf(name).filter((variable) => !env[variable]);
  if (missing.length > 0) throw new ConfigurationError(`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not configured (${name})`);
  return parseAppConfig(env);
}

/**
 * The variables `name`'s resource definition grants: written into a bundle at synth, so a bundle does
 * not carry every function's definition (~9 KiB); unbundled (the local runtime, tests) read from the
 * definitions. The test is group-routes.ts's: esbuild folds the ternary where the define is a string,
 * and the function it no longer calls leaves the bundle with the definitions.
 */
function requiredVariablesOf(name: FunctionName): readonly string[] {
  return typeof __REQUIRED_VARIABLES__ === 'string' ? (JSON.parse(__REQUIRED_VARIABLES__) as string[]) : definitionsRequiredVariables(name);
}

function definitionsRequiredVariables(name: FunctionName): readonly string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const definitions = require('../../runtime-contract/resource-definitions') as ResourceDefinitionsModule;
  return definitions.variablesOf(definitions.functions[name]).required;
}

const healthSchema = v.object({ SERVICE_NAME: settingsSchema.entries.SERVICE_NAME });
const storeTimeoutSchema = v.object({ STORE_REQUEST_TIMEOUT_MS: settingsSchema.entries.STORE_REQUEST_TIMEOUT_MS });

/** Health reads only its name: it must answer when every store is down. */
export function parseHealthConfig(env: Environment): { serviceName: string } {
  return { serviceName: parseSettings(healthSchema, env).SERVICE_NAME };
}

/**
 * Only the store's request time limit, for a queue consumer's handler sizing its retries beside its
 * composition (functions/composition/store-retries.ts).
 *
 * @example
 * parseStoreTimeoutConfig({ STORE_REQUEST_TIMEOUT_MS: '10000' }); // { requestTimeoutMs: 10000 }
 */
export function parseStoreTimeoutConfig(env: Environment): AppConfig['store'] {
  return { requestTimeoutMs: parseSettings(storeTimeoutSchema, env).STORE_REQUEST_TIMEOUT_MS };
}

/** Fails fast with a message that names the missing setting, instead of a confusing SDK error later. */
export function requireSetting<T extends string>(value: T, name: string): T {
  if (!value) throw new ConfigurationError(`${name} is not configured`);
  return value;
}
