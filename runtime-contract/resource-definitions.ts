/**
 * Stateful resources and what each Lambda may do with them, as plain data.
 *
 * The CDK app builds tables, queues (table-definitions.ts, queue-definitions.ts) and least-privilege grants from it; the local runtime
 * creates the same tables and queues in the emulators on boot. The environment variable
 * names are the only contract between the infrastructure and the code that runs.
 */
import type { EndpointGroup } from './route-manifest';
import type { TokenPurpose } from '../shared/crypto/token-cipher';
import { eventSourceCeilings } from './capacity-model';
import { deadLetterEnvVarOf, queues, queueSourceEnvVar, type QueueName, type QueueSource } from './queue-definitions';
import { tables, type TableName } from './table-definitions';

// The tables and queues live in modules of their own, which a function's configuration reads without this one.
export * from './table-definitions';
export * from './queue-definitions';

/**
 * How an SQS event source hands a queue consumer its messages (the event source mapping's settings);
 * `runtime-contract/event-sources.ts` pairs them with the queues of `receivesFrom`.
 */
export interface EventSourceSettings {
  /** Messages per invocation (1 to 10). */
  batchSize: number;
  /** How long the event source gathers a batch before invoking; 0: at once. */
  maxBatchingWindowSeconds: number;
  /** Concurrent invocations the event source starts at most. */
  maxConcurrency: number;
  /** The consumer answers with the records that failed (partial batch responses); only those come back. */
  reportBatchItemFailures: boolean;
}

/**
 * The campaign expander: one expansion message per invocation; it works up to its time budget
 * (40 s, docs/CAMPAIGNS.md "How a campaign runs") then re-queues itself, so 60 s leaves room for
 * the last page. One invocation per campaign expanding at once (the capacity model's count), and the
 * chunk workers do the sending.
 */
export const campaignExpander = {
  timeoutSeconds: 60,
  memoryMb: 512,
  batchSize: 1,
  maxBatchingWindowSeconds: 0,
  maxConcurrency: eventSourceCeilings.campaignExpander,
  reportBatchItemFailures: true,
} as const;

/** The chunk worker: one SQS message carries one chunk of up to 1,000 recipients. */
export const chunkWorker = {
  timeoutSeconds: 120,
  memoryMb: 1024,
  batchSize: 1,
  maxBatchingWindowSeconds: 0,
  // From the capacity model (capacity-model.ts): the accounts draining at peak, not a fixed wall. The
  // pacer keeps each account at its Meta rate however many invocations run.
  maxConcurrency: eventSourceCeilings.chunkWorker,
  // The worker reports the failed records of a batch; the others are not retried.
  reportBatchItemFailures: true,
} as const;

/**
 * The single-message lane's worker (single-sender): the chunk worker's engine on the single-messages
 * queue. Ten messages per invocation, sent concurrently (each is one recipient, independent of the
 * others) and each failure reported alone; one send is Meta's latency plus a claim and a settle
 * (~0.8 s, docs/SCALE.md), so 60 s covers a batch with rate-limit holds and retries, and the
 * 6 x 60 s visibility timeout of its queue. 1,024 MB as the chunk worker: the same code per message.
 */
export const singleSender = {
  timeoutSeconds: 60,
  memoryMb: 1024,
  batchSize: 10,
  maxBatchingWindowSeconds: 0,
  // From the capacity model: ~600 single messages a second at peak in batches of ~4, ~0.8 s each
  // (docs/SCALE.md "The single-message lane"); the pacer keeps each account at its rate however many run.
  maxConcurrency: eventSourceCeilings.singleSender,
  // Each failed message goes back alone; the batch's other messages are not sent again.
  reportBatchItemFailures: true,
} as const;

/**
 * The dead-lettered chunks' consumer (chunk-dead-letters): one chunk message per invocation, settled
 * without a send (up to 1,000 conditional claims, 16 at a time, and a reconcile: a few seconds).
 * Two at once at most (SQS's floor for a capped event source, the capacity model's figure): dead
 * letters are rare, and each one is settled, not hurried.
 */
export const chunkDeadLetters = {
  timeoutSeconds: 60,
  memoryMb: 512,
  batchSize: 1,
  maxBatchingWindowSeconds: 0,
  maxConcurrency: eventSourceCeilings.chunkDeadLetters,
  // A chunk it could not settle (a store outage) goes back to the dead-letter queue and is tried again.
  reportBatchItemFailures: true,
} as const;

/**
 * The delivery-event processor: one SQS message carries one webhook POST (up to ~1,000 events);
 * ten per invocation, applied together (one write per tally item for all of them), each retried
 * alone on failure (partial batch responses; docs/DELIVERY-STATUS.md "Event processing").
 */
export const deliveryEvents = {
  timeoutSeconds: 60,
  memoryMb: 512,
  batchSize: 10,
  maxBatchingWindowSeconds: 1,
  // From the capacity model: Meta's statuses at peak x the time each takes; the queue absorbs bursts above it.
  maxConcurrency: eventSourceCeilings.deliveryEvents,
  // One failed webhook batch goes back alone; the others are not applied again.
  reportBatchItemFailures: true,
} as const;

/**
 * The customer-events dispatcher: up to 10 deliveries per batch, POSTed concurrently (each ≤ 10 s).
 * 30 s leaves room for a probe and the calls after it, the re-queues and the store reads. A slow
 * call holds its whole invocation, so the concurrency is sized for fairness (docs/CUSTOMER-WEBHOOKS.md
 * "Fairness"): one organization's 10 endpoints that never answer hold at most 2 invocations each
 * (the per-endpoint cap), which leaves at least half of the ceiling (the capacity model's, never
 * below 40) to everyone else; it also bounds the outbound connections the platform opens.
 */
export const customerEventsDispatcher = {
  timeoutSeconds: 30,
  memoryMb: 256,
  batchSize: 10,
  maxBatchingWindowSeconds: 0,
  // From the capacity model, never below the fairness floor of 40 (capacity-inputs.ts).
  maxConcurrency: eventSourceCeilings.customerEventsDispatcher,
  // One failed delivery goes back alone (its retries are delayed copies the dispatcher queues itself).
  reportBatchItemFailures: true,
} as const;

/** `write`: PutItem only (the audit log's recorders: they append, never read). */
export type Access = 'read' | 'readWrite' | 'write';

/**
 * The DynamoDB actions an access level grants on a table and its indexes: the calls the adapters
 * make (single-item reads and writes, Query, batch reads and writes). No Scan, ConditionCheckItem,
 * DescribeTable or stream actions: no code issues them, and `npm run test:deployed` records every
 * call each function makes (docs/TESTING.md "Proven as deployed").
 */
export const tableActions: Record<Access, readonly string[]> = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
  readWrite: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
  ],
  write: ['dynamodb:PutItem'],
};

/** The DynamoDB actions the adapters issue (no transactions, no Scan anywhere in the code). */
export type TableAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem';

/**
 * Every command the adapters of each table can send, from their sources (`new XCommand` in
 * `shared/adapters/dynamodb/`, plus the Powertools idempotency persistence layer); checked by
 * `npm run test:deployed`, which records every call. A function's grant on a table is its access
 * level's actions narrowed to these, so an action no adapter of that table issues is never granted.
 */
export const tableAdapterActions: Record<TableName, { adapters: readonly string[]; actions: readonly TableAction[] }> = {
  tenancy: {
    adapters: [
      'dynamodb-organization-store',
      'dynamodb-account-directory',
      'dynamodb-credential-store',
      'dynamodb-membership-store',
      'dynamodb-billing-store',
      'dynamodb-meta-app-settings',
      'dynamodb-webhook-endpoint-registry',
      'dynamodb-rate-card-store',
      'dynamodb-contact-policy-store',
    ],
    actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
  },
  messaging: {
    adapters: [
      'dynamodb-job-store',
      'dynamodb-job-control-store',
      'dynamodb-recipient-ledger',
      'dynamodb-chunk-progress-store',
      'dynamodb-broadcast-name-registry',
      'dynamodb-send-pacer',
      'dynamodb-wrapper-id-records',
      'dynamodb-upstream-delivery-store',
      'dynamodb-template-states',
      'dynamodb-portfolio-reach',
      'dynamodb-scheduled-job-store',
      'dynamodb-customer-event-log',
      'dynamodb-ledger-delivery-store',
      'dynamodb-campaign-store',
      'dynamodb-person-claims',
      'dynamodb-outcome-store',
      'dynamodb-touch-store',
      'dynamodb-frequency-cap-store',
    ],
    actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
  },
  // Powertools' DynamoDBPersistenceLayer: put (claim), get, update (result), delete (a failed handler's claim).
  idempotency: { adapters: ['claim-token-persistence-layer'], actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  rateLimits: { adapters: ['dynamodb-rate-limiter', 'dynamodb-webhook-endpoint-health', 'dynamodb-redelivery-quota'], actions: ['GetItem', 'UpdateItem'] },
  // The audit log: a conditional put per entry, a Query per page read.
  audit: { adapters: ['dynamodb-audit-log'], actions: ['Query', 'PutItem'] },
  inbox: {
    adapters: [
      'dynamodb-inbox-repository',
      'dynamodb-opt-out-list',
      'dynamodb-opt-out-lookup',
      'dynamodb-contact-book',
      'inbox-table',
      'dynamodb-audience-store',
      'audience-member-items',
      'audience-write-lease',
      'dynamodb-opt-out-keys',
    ],
    actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
  },
};

/**
 * Actions on a table that only one adapter issues, granted only to the functions whose composition
 * builds that adapter (`functions/composition/messaging.section.ts` and the compositions calling it).
 */
export const adapterOnlyTableActions: ReadonlyArray<{
  table: TableName;
  actions: readonly TableAction[];
  adapter: string;
  composedBy: readonly FunctionName[];
}> = [
  // BatchGet on messaging: the wrapper's message-id ownership records, and the tally items a webhook batch's status events concern.
  { table: 'messaging', actions: ['BatchGetItem'], adapter: 'dynamodb-wrapper-id-records', composedBy: ['upstream-wrapper'] },
  { table: 'messaging', actions: ['BatchGetItem'], adapter: 'dynamodb-ledger-delivery-store', composedBy: ['delivery-events'] },
  // BatchGet on messaging: a person's touches under their ids (docs/OUTCOMES.md "Attribution").
  { table: 'messaging', actions: ['BatchGetItem'], adapter: 'dynamodb-touch-store', composedBy: ['delivery-events'] },
  // BatchWrite on inbox: audience members, written and removed 25 at a time (docs/CAMPAIGNS.md "Audiences").
  { table: 'inbox', actions: ['BatchWriteItem'], adapter: 'dynamodb-audience-store', composedBy: ['broadcast-audiences'] },
];

/**
 * A queue consumer names its queues and how its event sources hand it their messages, together;
 * any other function names neither. `eventSources` (event-sources.ts) lists one per queue.
 */
export type QueueConsumption =
  | {
      /** Consumes these queues (or dead-letter queues) through an event source (and changes the visibility of what it received). */
      receivesFrom: QueueSource[];
      eventSource: EventSourceSettings;
    }
  | { receivesFrom?: undefined; eventSource?: undefined };

export type FunctionDefinition = FunctionResources & QueueConsumption;

export interface FunctionResources {
  memoryMb: number;
  timeoutSeconds: number;
  tables: Partial<Record<TableName, Access>>;
  /** Send messages to these queues. */
  sendsTo: QueueName[];
  /** KMS use for secrets at rest (Meta tokens, the Meta app's settings, webhook secrets). */
  tokenKey?: 'decrypt' | 'encryptDecrypt';
  /**
   * The encryption-context purposes its token key grant is limited to (IAM condition
   * `kms:EncryptionContext:purpose`); required with `tokenKey`. shared/crypto/token-cipher.ts.
   */
  tokenPurposes?: readonly TokenPurpose[];
  /** Calls the WhatsApp Cloud API. */
  callsUpstream: boolean;
  /** Registers API Gateway API keys in usage plans (issuing keys at run time). */
  managesApiKeys?: boolean;
  /**
   * Manages people's sign-in accounts at the identity provider (docs/PEOPLE.md "People"): on AWS the
   * stack's Cognito user pool (cognito-idp AdminCreateUser, AdminGetUser, AdminUserGlobalSignOut), locally the OIDC
   * provider's admin endpoint. Grants PEOPLE_USER_POOL_ID, LOCAL_IDENTITY_ADMIN_URL and LOCAL_IDENTITY_ADMIN_SECRET.
   */
  managesPeople?: boolean;
  /** Sends to these queues' dead-letter queues itself (a delivery that gave up), variable `deadLetterEnvVarOf(queue)`. */
  deadLettersOf?: QueueName[];
  /** Registers and removes the one-time triggers of scheduled broadcasts (EventBridge Scheduler, `broadcastScheduler`). */
  schedulesFirings?: boolean;
  /** Files of an npm package copied next to the bundle (into `directory`), read at run time: the docs page's renderer. */
  bundledFiles?: { directory: string; package: string; files: readonly string[] };
  /** Browser files esbuild builds from our sources into `directory` next to the bundle (the console's script and style sheet; browser-assets.ts). */
  browserAssets?: BrowserAssets;
  /**
   * X-Ray subsegments for each of its AWS SDK calls (Powertools Tracer, shared/observability/tracer.ts):
   * on unless `false`. Lambda's own trace of each invocation stays on for every function. Off for the
   * queue workers that make SDK calls per message at volume: there the X-Ray SDK's async hook makes
   * every awaited promise dearer (docs/PERFORMANCE.md 4g) and a chunk of 1,000 recipients would
   * record hundreds of subsegments. A function with `false` runs with POWERTOOLS_TRACE_ENABLED=false
   * and its bundle leaves the tracer out (lib/constructs/service-function.ts `bundlingOf`).
   */
  tracesSdkCalls?: false;
}

export interface BrowserAssets {
  /** Folder next to the Lambda bundle (on AWS) and under the local data folder's build (locally). */
  directory: string;
  /** One built file per entry (repository-relative source, served file name). */
  bundles: ReadonlyArray<{ entry: string; file: string }>;
}

/**
 * Scheduled broadcasts: the function the one-time schedules invoke with `{ jobId }` and the sweep
 * rule invokes every `sweepIntervalMinutes` (docs/BROADCAST.md "Scheduling").
 */
export const broadcastScheduler = {
  functionName: 'broadcast-scheduler',
  sweepIntervalMinutes: 1,
  /** Jobs one sweep fires at most; the next sweep continues. */
  sweepBatchSize: 50,
} as const;

export type FunctionName =
  | EndpointGroup
  | 'chunk-worker'
  | 'single-sender'
  | 'chunk-dead-letters'
  | 'delivery-events'
  | 'customer-events'
  | typeof broadcastScheduler.functionName
  | 'campaign-expander'
  | typeof requestAuthorizer.functionName;

/**
 * A consumer of an outbound lane's queue (chunk-worker, single-sender): one definition for both, so
 * the two lanes cannot drift apart in grants. Inbox read: the opt-out list, checked again at send
 * time; it sends to its own queue (re-queues stay in their lane) and customerEvents (job.completed
 * when it settles a job's last chunk); click-link: the tracked-link key, made on the first tracked
 * send (shared/clicks/click-link-key.ts). No SDK tracing: a per-message worker (docs/OPERATIONS.md).
 */
function chunkConsumerDefinition(queue: 'outboundMessages' | 'singleMessages', settings: typeof chunkWorker | typeof singleSender) {
  return {
    memoryMb: settings.memoryMb,
    timeoutSeconds: settings.timeoutSeconds,
    tables: { tenancy: 'read', messaging: 'readWrite', inbox: 'read' },
    sendsTo: [queue, 'customerEvents'],
    receivesFrom: [queue],
    eventSource: settings,
    tokenKey: 'encryptDecrypt',
    tokenPurposes: ['upstream-token', 'click-link'],
    callsUpstream: true,
    tracesSdkCalls: false,
  } satisfies FunctionDefinition;
}

/**
 * The broadcast REST API's Lambda REQUEST authorizer (docs/PEOPLE.md "On AWS"): names the usage-plan
 * key a keyed request is metered by (`apiKeySource: AUTHORIZER`), the `x-api-key` as sent or a signed-in
 * person's own key. Never cached: a request carries one of two headers, and a cache keyed on both would
 * need both present (an authorizer without identity sources is invoked on every request).
 */
export const requestAuthorizer = {
  functionName: 'request-authorizer',
} as const;

export const functions: Record<FunctionName, FunctionDefinition> = {
  /**
   * The broadcast API's request authorizer: tenancy read (the person's membership and its usage-plan
   * key), nothing else. 256 MB, 10 s: one token check (the issuer's keys cached per container) and one
   * query per request without an `x-api-key`; API Gateway waits for it before every keyed method.
   */
  'request-authorizer': { memoryMb: 256, timeoutSeconds: 10, tables: { tenancy: 'read' }, sendsTo: [], callsUpstream: false },
  health: { memoryMb: 256, timeoutSeconds: 5, tables: {}, sendsTo: [], callsUpstream: false },
  /** The API reference: builds the OpenAPI document once per cold start; the renderer's files ship next to the bundle. */
  /**
   * Tracked links' redirect (docs/OUTCOMES.md "Tracked links"): messaging readWrite (the token's job
   * and recipient, the click fact in the tally item, Meta's click ids); tenancy read: the
   * organization's webhook subscribers (link.clicked); the token key decrypts the link key only.
   */
  'click-redirect': {
    memoryMb: 256,
    timeoutSeconds: 5,
    tables: { tenancy: 'read', messaging: 'readWrite' },
    sendsTo: ['customerEvents'],
    tokenKey: 'decrypt',
    tokenPurposes: ['click-link'],
    callsUpstream: false,
  },
  docs: {
    memoryMb: 256,
    timeoutSeconds: 10,
    tables: {},
    sendsTo: [],
    callsUpstream: false,
    bundledFiles: { directory: 'swagger-ui', package: 'swagger-ui-dist', files: ['swagger-ui.css', 'swagger-ui-bundle.js'] },
  },
  /** The campaign console (docs/CONSOLE.md): serves its page and the files esbuild built at bundling; no table, no key. */
  console: {
    memoryMb: 256,
    timeoutSeconds: 10,
    tables: {},
    sendsTo: [],
    callsUpstream: false,
    browserAssets: {
      directory: 'console-assets',
      bundles: [
        { entry: 'console/ui/main.ts', file: 'console.js' },
        { entry: 'console/console.css', file: 'console.css' },
      ],
    },
  },
  /** Messaging read: the template list overlays template states recorded from Meta's events. */
  'broadcast-discovery': {
    memoryMb: 512,
    timeoutSeconds: 20,
    tables: { tenancy: 'read', messaging: 'read', rateLimits: 'readWrite' },
    sendsTo: [],
    tokenKey: 'decrypt',
    tokenPurposes: ['upstream-token'],
    callsUpstream: true,
  },
  /** Inbox read: free-form sends check the customer-service window recorded on v1 conversations. */
  'broadcast-send': {
    memoryMb: 1024,
    timeoutSeconds: 29,
    tables: { tenancy: 'readWrite', messaging: 'readWrite', idempotency: 'readWrite', rateLimits: 'readWrite', inbox: 'read', audit: 'write' },
    // customerEvents: a person's pause announces job.paused / campaign.paused; campaignExpansion: a resumed campaign expands again at once.
    // singleMessages: a job of one recipient travels the single-message lane (shared/broadcast/outbound-lanes.ts).
    sendsTo: ['outboundMessages', 'singleMessages', 'customerEvents', 'campaignExpansion'],
    tokenKey: 'decrypt',
    tokenPurposes: ['upstream-token'],
    callsUpstream: true,
    // Scheduled broadcasts: the one-time trigger of each is registered at accept, removed on cancel.
    schedulesFirings: true,
  },
  'broadcast-status': {
    // The recipients CSV decodes up to 10,000 ledger items (~3 MB read, ~0.7 MB answered) in one call:
    // 512 MB for the CPU share (Lambda's CPU scales with memory), well inside 10 s.
    memoryMb: 512,
    timeoutSeconds: 10,
    tables: { tenancy: 'read', messaging: 'read', rateLimits: 'readWrite' },
    sendsTo: [],
    callsUpstream: false,
  },
  'organization-admin': {
    memoryMb: 256,
    // Up to 500 removals of three single-item writes each, five at a time: a few seconds at most.
    timeoutSeconds: 29,
    tables: { tenancy: 'readWrite', rateLimits: 'readWrite', audit: 'write' },
    sendsTo: [],
    callsUpstream: false,
  },
  'v1-inbox': {
    memoryMb: 512,
    timeoutSeconds: 10,
    tables: { tenancy: 'read', inbox: 'readWrite', rateLimits: 'readWrite' },
    sendsTo: [],
    callsUpstream: false,
  },
  /**
   * The /upstream wrapper (docs/UPSTREAM-WRAPPER.md). Tenancy readWrite: an account whose token Meta
   * rejects (OAuth 190) is flagged needs-authorization. Messaging readWrite: bulk sends reserve slots
   * on the account's shared send pacer. 1,024 MB for multipart uploads held in memory (≤ 4 MB files,
   * decoded and re-encoded) and CPU; 29 s so a bulk send (≤ 25 s budget) and a 15 s upstream call fit.
   */
  'upstream-wrapper': {
    memoryMb: 1024,
    timeoutSeconds: 29,
    tables: { tenancy: 'readWrite', messaging: 'readWrite', rateLimits: 'readWrite' },
    sendsTo: [],
    tokenKey: 'decrypt',
    tokenPurposes: ['upstream-token'],
    callsUpstream: true,
  },
  /** generate-key and the organization's own API keys (`/api-keys`, docs/PEOPLE.md "API keys"); audit: creating and revoking a key are recorded. */
  'broadcast-keys': {
    memoryMb: 256,
    timeoutSeconds: 10,
    tables: { tenancy: 'readWrite', rateLimits: 'readWrite', audit: 'write' },
    sendsTo: [],
    callsUpstream: false,
    managesApiKeys: true,
  },
  /**
   * Meta's webhooks: checks the signature and stores the raw batch on the metaEvents queue, nothing
   * else, so it answers fast (docs/DELIVERY-STATUS.md "Webhook endpoint"). Tenancy read: the Meta
   * app settings (`PLATFORM` / `META_APP`); the token key decrypts the app secret and verify token.
   * 256 MB, sized from a measured 4 MiB batch (docs/PERFORMANCE.md "4j"): ~0.33 s CPU at one vCPU,
   * so ~2.2 s here at 0.145 vCPU, within the 10 s timeout; more memory would double every small POST's cost.
   */
  'meta-webhook': {
    memoryMb: 256,
    timeoutSeconds: 10,
    tables: { tenancy: 'read' },
    sendsTo: ['metaEvents'],
    tokenKey: 'decrypt',
    tokenPurposes: ['meta-app'],
    callsUpstream: false,
  },
  /**
   * Customer webhook endpoints (docs/CUSTOMER-WEBHOOKS.md). Tenancy readWrite: the endpoint items;
   * messaging read: the event log (redelivery); token key: the signing secrets are encrypted;
   * customerEvents: /test and /redeliver queue deliveries.
   */
  /** Saved audiences (docs/CAMPAIGNS.md): the inbox table (audiences, members, contacts, opt-outs, pairs), Idempotency-Key on member imports. */
  'broadcast-audiences': {
    // An import of 10,000 members is 10,000 single-item writes, 32 at a time: seconds, well inside 29 s.
    memoryMb: 512,
    timeoutSeconds: 29,
    tables: { tenancy: 'read', inbox: 'readWrite', idempotency: 'readWrite', rateLimits: 'readWrite', audit: 'write' },
    sendsTo: [],
    callsUpstream: false,
  },
  /**
   * `/me` and the organization's people (docs/PEOPLE.md "People"). Tenancy readWrite: memberships and
   * their removal records; API keys: each person's usage-plan key; the identity provider's accounts.
   */
  'broadcast-people': {
    memoryMb: 256,
    timeoutSeconds: 29,
    tables: { tenancy: 'readWrite', rateLimits: 'readWrite', audit: 'write' },
    sendsTo: [],
    callsUpstream: false,
    managesApiKeys: true,
    managesPeople: true,
  },
  'broadcast-webhooks': {
    memoryMb: 256,
    timeoutSeconds: 29,
    tables: { tenancy: 'readWrite', messaging: 'read', rateLimits: 'readWrite', audit: 'write' },
    sendsTo: ['customerEvents'],
    tokenKey: 'encryptDecrypt',
    tokenPurposes: ['webhook-secret'],
    callsUpstream: false,
  },
  /**
   * Campaigns (docs/CAMPAIGNS.md): create, list, read, launch. Messaging readWrite: the campaign
   * items and, at launch, its job (created open, without recipients); inbox read: the audiences a campaign names (and the v1 contacts);
   * the token key: the template list is read from Meta with the account's token, as at a broadcast's accept.
   */
  /** The audit log's reader (docs/PEOPLE.md "Audit log"): GET /audit-log only; tenancy read for the caller. */
  'broadcast-audit': {
    memoryMb: 256,
    timeoutSeconds: 10,
    tables: { tenancy: 'read', rateLimits: 'readWrite', audit: 'read' },
    sendsTo: [],
    callsUpstream: false,
  },
  'broadcast-campaigns': {
    memoryMb: 512,
    timeoutSeconds: 29,
    tables: { tenancy: 'read', messaging: 'readWrite', inbox: 'read', rateLimits: 'readWrite', audit: 'write' },
    // The launch queues the campaign's first expansion message (the expander does the rest).
    sendsTo: ['campaignExpansion'],
    tokenKey: 'decrypt',
    tokenPurposes: ['upstream-token'],
    callsUpstream: true,
  },
  // outboundMessages: its re-queues (the account's turn, the time budget, holds, waits) go back to its lane.
  'chunk-worker': chunkConsumerDefinition('outboundMessages', chunkWorker),
  /**
   * The single-message lane's worker (docs/SCALE.md "The single-message lane"): the chunk worker's
   * consumer (functions/chunk-worker/chunk-consumer.ts) on the singleMessages queue, with the same
   * ports and grants but its own queue.
   */
  'single-sender': chunkConsumerDefinition('singleMessages', singleSender),
  /**
   * Settles the chunk messages that reached either lane's dead-letter queue (outbound and single
   * messages: a worker that crashed or
   * timed out on the last delivery, a store outage while it gave up): unclaimed recipients FAILED
   * `WORKER_ERROR`, crashed claims UNKNOWN, the chunk reconciled, job.completed when it was the last
   * (docs/BROADCAST.md "Delivery"). Never sends: no token key, no Cloud API. Tenancy read: webhook
   * subscribers of job.completed.
   */
  'chunk-dead-letters': {
    memoryMb: chunkDeadLetters.memoryMb,
    timeoutSeconds: chunkDeadLetters.timeoutSeconds,
    tables: { tenancy: 'read', messaging: 'readWrite' },
    sendsTo: ['customerEvents'],
    // Both lanes' dead letters: the same messages, settled by the same routine.
    receivesFrom: [{ deadLetterQueueOf: 'outboundMessages' }, { deadLetterQueueOf: 'singleMessages' }],
    eventSource: chunkDeadLetters,
    callsUpstream: false,
  },
  /** Meta's webhook events: ledger facts and tally (messaging), inbound messages (inbox), owners (tenancy). */
  'delivery-events': {
    memoryMb: deliveryEvents.memoryMb,
    timeoutSeconds: deliveryEvents.timeoutSeconds,
    tables: { tenancy: 'read', messaging: 'readWrite', inbox: 'readWrite' },
    // Customer events of what it applied (message.status, message.received, template.status, message.replied, button.tapped).
    sendsTo: ['customerEvents'],
    receivesFrom: ['metaEvents'],
    eventSource: deliveryEvents,
    callsUpstream: false,
    tracesSdkCalls: false,
  },
  /**
   * Delivers customer events to webhook endpoints: reads endpoints (tenancy; readWrite because a
   * delivery marks its endpoint failing or active again), re-queues failed deliveries with a delay,
   * parks the given-up ones in the dead-letter queue. Messaging read: the event log. The endpoint
   * secrets' token key (`tokenKey: 'decrypt'`) comes with the registry adapter that decrypts them.
   * Rate limits: each endpoint's health (concurrency leases, circuit breaker).
   */
  'customer-events': {
    memoryMb: customerEventsDispatcher.memoryMb,
    timeoutSeconds: customerEventsDispatcher.timeoutSeconds,
    tables: { tenancy: 'readWrite', messaging: 'read', rateLimits: 'readWrite' },
    sendsTo: ['customerEvents'],
    receivesFrom: ['customerEvents'],
    eventSource: customerEventsDispatcher,
    deadLettersOf: ['customerEvents'],
    tokenKey: 'decrypt',
    tokenPurposes: ['webhook-secret'],
    callsUpstream: false,
    tracesSdkCalls: false,
  },
  /**
   * Scheduled broadcasts: fires a job at its time (one-time schedule target, `{ jobId }`) and sweeps
   * due jobs a trigger missed (rule). Messaging: the job, its held messages, the due index (gsi2).
   * Tenancy read: a job of a suspended organization is cancelled instead of fired.
   */
  'broadcast-scheduler': {
    memoryMb: 512,
    timeoutSeconds: 60,
    tables: { messaging: 'readWrite', tenancy: 'read' },
    // A scheduled job of one recipient fires into the single-message lane.
    sendsTo: ['outboundMessages', 'singleMessages'],
    callsUpstream: false,
  },
  /**
   * Expands launched campaigns page by page into their jobs' chunks (docs/CAMPAIGNS.md "How a
   * campaign runs"). Messaging readWrite: the campaign's checkpoint, the person claims, the job's
   * chunks and refused recipients, the messaging limit's buckets. Inbox read: the audiences' members,
   * v1 contacts, the contact book's pairs, the opt-out list. Tenancy read and the token key: the
   * sender's account and token (its templates and messaging tier from the Cloud API).
   * customerEvents: campaign.started, campaign.completed.
   */
  'campaign-expander': {
    memoryMb: campaignExpander.memoryMb,
    timeoutSeconds: campaignExpander.timeoutSeconds,
    tables: { tenancy: 'read', messaging: 'readWrite', inbox: 'read' },
    sendsTo: ['outboundMessages', 'campaignExpansion', 'customerEvents'],
    receivesFrom: ['campaignExpansion'],
    eventSource: campaignExpander,
    tokenKey: 'decrypt',
    tokenPurposes: ['upstream-token'],
    callsUpstream: true,
    tracesSdkCalls: false,
  },
};

/** Lambda entry module of a function, relative to the project root. */
export const entryOf = (name: FunctionName): string => `functions/${name}/${name}.lambda.ts`;

/** The variables that name a resource or a credential; a function gets only those its definition grants. */
export interface FunctionVariables {
  /** Tables and queues: a function without one of them cannot start. */
  required: string[];
  /** Settings with a default or a local stand-in (token key, Graph API, usage plan). */
  optional: string[];
}

const upstreamVariables = ['GRAPH_API_BASE_URL', 'GRAPH_API_VERSION', 'UPSTREAM_TIMEOUT_MS'];
/** TOKEN_KMS_KEY_ID on AWS; LOCAL_TOKEN_KEY is its stand-in in the local runtime. */
const tokenKeyVariables = ['TOKEN_KMS_KEY_ID', 'LOCAL_TOKEN_KEY'];
const apiKeyVariables = ['BROADCAST_USAGE_PLAN_ID'];
const schedulerVariables = ['BROADCAST_SCHEDULE_GROUP', 'BROADCAST_SCHEDULER_ROLE_ARN', 'BROADCAST_SCHEDULER_TARGET_ARN'];
const peopleVariables = ['PEOPLE_USER_POOL_ID', 'LOCAL_IDENTITY_ADMIN_URL', 'LOCAL_IDENTITY_ADMIN_SECRET'];

export function variablesOf(definition: FunctionDefinition): FunctionVariables {
  const tableVariables = (Object.keys(definition.tables) as TableName[]).map((name) => tables[name].envVar);
  const queueVariables = [...definition.sendsTo.map((name) => queues[name].envVar), ...(definition.receivesFrom ?? []).map(queueSourceEnvVar)];
  const deadLetterVariables = (definition.deadLettersOf ?? []).map(deadLetterEnvVarOf);
  return {
    required: [...new Set([...tableVariables, ...queueVariables, ...deadLetterVariables])],
    optional: [
      ...(definition.tokenKey ? tokenKeyVariables : []),
      ...(definition.callsUpstream ? upstreamVariables : []),
      ...(definition.managesApiKeys ? apiKeyVariables : []),
      ...(definition.schedulesFirings ? schedulerVariables : []),
      ...(definition.managesPeople ? peopleVariables : []),
    ],
  };
}

/** Every variable some definition may grant; the rest (region, endpoints, tuning, logging) every function gets. */
export const grantedVariables: ReadonlySet<string> = new Set([
  ...Object.values(tables).map((table) => table.envVar),
  ...Object.values(queues).map((queue) => queue.envVar),
  ...(Object.keys(queues) as QueueName[]).map(deadLetterEnvVarOf),
  ...upstreamVariables,
  ...tokenKeyVariables,
  ...apiKeyVariables,
  ...schedulerVariables,
  ...peopleVariables,
]);

/** A function's own environment out of a whole-platform one: what AWS gives it, for the local runtime. */
export function environmentOf(name: FunctionName, environment: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const granted = variablesOf(functions[name]);
  const own = new Set([...granted.required, ...granted.optional]);
  const result: Record<string, string> = {};
  for (const [variable, value] of Object.entries(environment)) {
    if (value !== undefined && (!grantedVariables.has(variable) || own.has(variable))) result[variable] = value;
  }
  return result;
}

/**
 * The IAM actions a function gets on a table: its access level's actions, narrowed to what the
 * table's adapters issue, without the actions only an adapter it does not compose issues.
 * Empty when the function has no access to the table.
 */
export function tableGrantOf(name: FunctionName, table: TableName): string[] {
  const access = functions[name].tables[table];
  if (!access) return [];
  const adapterOnly = (composed: boolean) =>
    adapterOnlyTableActions
      .filter((entry) => entry.table === table && entry.composedBy.includes(name) === composed)
      .flatMap((entry) => entry.actions.map((action) => `dynamodb:${action}`));
  // An action two adapters issue stays granted to a function composing either.
  const own = new Set(adapterOnly(true));
  const excluded = new Set(adapterOnly(false).filter((action) => !own.has(action)));
  const issued = new Set(tableAdapterActions[table].actions.map((action) => `dynamodb:${action}`));
  return tableActions[access].filter((action) => issued.has(action) && !excluded.has(action));
}
