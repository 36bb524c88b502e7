/**
 * The composition root: the one place that turns configuration into SDK clients, adapters and
 * use cases bound to their ports. Every Lambda and the local runtime get their services here, so
 * AWS, LocalStack and the emulators differ only in the AppConfig they pass.
 *
 * Everything is built on first use and then kept for the life of the process (a warm Lambda
 * reuses clients and their connections). A handler that never touches DynamoDB never builds a
 * DynamoDB client.
 *
 * Adding a module: write `buildXSection(context)` next to `buildTenancySection`, add its type to
 * `Services`, and expose it with a memoized getter in `buildServices`. Use `context.clients` for
 * SDK clients rather than constructing new ones.
 */
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ApiGatewayKeyRegistry } from '../shared/adapters/api-gateway/api-gateway-key-registry';
import { LocalAesTokenCipher } from '../shared/adapters/crypto/local-aes-token-cipher';
import { DynamoDbTenancyRepository } from '../shared/adapters/dynamodb/dynamodb-tenancy-repository';
import { KmsTokenCipher } from '../shared/adapters/kms/kms-token-cipher';
import { parseAppConfig, requireSetting, type AppConfig } from '../shared/config/app-config';
import { DynamoDbBroadcastRepository } from '../shared/adapters/dynamodb/dynamodb-broadcast-repository';
import { DynamoDbRateLimiter } from '../shared/adapters/dynamodb/dynamodb-rate-limiter';
import { DynamoDbSendPacer } from '../shared/adapters/dynamodb/dynamodb-send-pacer';
import { FetchCloudApiClient } from '../shared/adapters/graph-api/fetch-cloud-api-client';
import { PowertoolsIdempotencyGuard } from '../shared/adapters/idempotency/powertools-idempotency-guard';
import { SqsOutboundQueue } from '../shared/adapters/sqs/sqs-outbound-queue';
import { TenancySenderDirectory } from '../shared/module-bridges/tenancy-sender-directory';
import { TenancyBilling } from '../shared/module-bridges/tenancy-billing';
import { DynamoDbBroadcastNameRegistry } from '../shared/adapters/dynamodb/dynamodb-broadcast-name-registry';
import type { EarlierSendDependencies } from '../shared/broadcast/send-earlier-template';
import type { ProcessChunkDependencies } from '../shared/broadcast/process-outbound-chunk';
import type { SendTemplateBroadcastDependencies } from '../shared/broadcast/send-template-broadcast';
import { TemplateCatalog } from '../shared/broadcast/template-catalog';
import type { HttpPipelineDependencies } from '../shared/http/http-operation';
import type { CloudApiClient } from '../shared/sending/ports';
import { randomSecretGenerator, type SecretGenerator } from '../shared/crypto/secret-generator';
import type { TokenCipher } from '../shared/crypto/token-cipher';
import { unconfiguredTokenCipher } from '../shared/crypto/unconfigured-token-cipher';
import { systemClock, type Clock } from '../shared/ports/clock';
import { randomIdGenerator, type IdGenerator } from '../shared/ports/id-generator';
import type { ApiKeyRegistry } from '../shared/tenancy/api-key-registry';
import { DecryptedTokenCache } from '../shared/tenancy/decrypted-token-cache';
import { noOpApiKeyRegistry } from '../shared/tenancy/no-op-api-key-registry';
import { bindTenancyServices, type TenancyServices } from '../shared/tenancy/tenancy-services';
import type { TenancyPorts } from '../shared/tenancy/ports';
import { FetchGraphTransport } from '../shared/adapters/graph-api/fetch-graph-transport';
import { logger } from '../shared/observability/logger';
import { OwnedIdDirectory } from '../shared/upstream/owned-ids';
import { DynamoDbWrapperIdRecords } from '../shared/adapters/dynamodb/dynamodb-wrapper-id-records';
import { BroadcastMessageIds } from '../shared/module-bridges/broadcast-message-ids';
import type { UpstreamWrapperDependencies } from '../shared/upstream/ports';
import { DynamoDbInboxRepository } from '../shared/adapters/dynamodb/dynamodb-inbox-repository';
import { bindInboxServices, type InboxServices } from '../shared/inbox/inbox-services';
import { bindOrganizationServices, type OrganizationServices } from '../shared/organizations/organization-services';

/** SDK clients, each built once on first access. */
export interface AwsClients {
  /** Document client (plain JS values, undefined attributes dropped). Short timeouts: see below. */
  readonly dynamoDb: DynamoDBDocumentClient;
  /** The same connection without marshalling, for libraries that speak raw AttributeValues (Powertools). */
  readonly dynamoDbBase: DynamoDBClient;
  readonly sqs: SQSClient;
  readonly kms: KMSClient;
  readonly apiGateway: APIGatewayClient;
}

export interface Services {
  readonly config: AppConfig;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly clients: AwsClients;
  readonly tenancy: TenancyServices;
  /** What the shared HTTP pipeline needs: authentication, rate limits, time. */
  readonly http: HttpPipelineDependencies;
  readonly broadcast: BroadcastServices;
  readonly chunkWorker: ProcessChunkDependencies;
  /** The /upstream Cloud API wrapper. */
  readonly upstreamWrapper: UpstreamWrapperDependencies;
  /** Organization administration (remove-employee-bulk). */
  readonly organizations: OrganizationServices;
  /** Generic v1 API: contacts and conversations. */
  readonly inbox: InboxServices;
  /** Closes the sockets of every client built so far (tests and the local runtime's shutdown). */
  destroy(): void;
}

/** Replaceable collaborators, for tests and deterministic seeding. */
export interface ServiceOverrides {
  clock?: Clock;
  ids?: IdGenerator;
  secrets?: SecretGenerator;
  apiKeyRegistry?: ApiKeyRegistry;
  tokenCipher?: TokenCipher;
}

/** What every section builder receives. */
export interface CompositionContext {
  config: AppConfig;
  clients: AwsClients;
  clock: Clock;
  ids: IdGenerator;
  overrides: ServiceOverrides;
}

function memoize<T>(create: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = create();
      built = true;
    }
    return value;
  };
}

/**
 * DynamoDB answers in milliseconds; a request that takes seconds is a network problem. Failing
 * after 2 s with one retry keeps authentication inside API Gateway's 29 s and lets the handler
 * answer 503 (the contract's "authentication storage timed out") instead of hanging.
 */
const dynamoDbTimeouts = { connectionTimeout: 1_000, requestTimeout: 2_000, throwOnRequestTimeout: true } as const;
const dynamoDbMaxAttempts = 2;
const controlPlaneTimeouts = { connectionTimeout: 2_000, requestTimeout: 5_000, throwOnRequestTimeout: true } as const;

function buildAwsClients(config: AppConfig): { clients: AwsClients; destroyBuilt(): void } {
  const built: Array<{ destroy(): void }> = [];
  const track = <T extends { destroy(): void }>(client: T): T => {
    built.push(client);
    return client;
  };

  const dynamoDbBase = memoize(() =>
    track(
      new DynamoDBClient({
        region: config.region,
        endpoint: config.endpoints.dynamodb,
        maxAttempts: dynamoDbMaxAttempts,
        requestHandler: dynamoDbTimeouts,
      }),
    ),
  );
  const dynamoDb = memoize(() => DynamoDBDocumentClient.from(dynamoDbBase(), { marshallOptions: { removeUndefinedValues: true } }));
  const sqs = memoize(() => track(new SQSClient({ region: config.region, endpoint: config.endpoints.sqs })));
  const kms = memoize(() =>
    track(new KMSClient({ region: config.region, endpoint: config.endpoints.kms, maxAttempts: 3, requestHandler: controlPlaneTimeouts })),
  );
  const apiGateway = memoize(() =>
    track(new APIGatewayClient({ region: config.region, endpoint: config.endpoints.apiGateway, requestHandler: controlPlaneTimeouts })),
  );

  return {
    clients: {
      get dynamoDb() {
        return dynamoDb();
      },
      get dynamoDbBase() {
        return dynamoDbBase();
      },
      get sqs() {
        return sqs();
      },
      get kms() {
        return kms();
      },
      get apiGateway() {
        return apiGateway();
      },
    },
    destroyBuilt: () => {
      for (const client of built.splice(0)) client.destroy();
    },
  };
}

function buildTokenCipher(context: CompositionContext): TokenCipher {
  if (context.overrides.tokenCipher) return context.overrides.tokenCipher;
  const encryption = context.config.tokenEncryption;
  switch (encryption.kind) {
    case 'kms':
      return new KmsTokenCipher(context.clients.kms, encryption.keyId);
    case 'local':
      return new LocalAesTokenCipher(encryption.keyBase64);
    case 'unconfigured':
      return unconfiguredTokenCipher;
  }
}

function buildApiKeyRegistry(context: CompositionContext): ApiKeyRegistry {
  if (context.overrides.apiKeyRegistry) return context.overrides.apiKeyRegistry;
  const usagePlanId = context.config.usagePlans.broadcastUsagePlanId;
  // Without a usage plan (locally) the gateway consults the credential store itself.
  return usagePlanId ? new ApiGatewayKeyRegistry(context.clients.apiGateway, usagePlanId) : noOpApiKeyRegistry;
}

function buildTenancySection(context: CompositionContext): TenancyServices {
  const repository = memoize(
    () => new DynamoDbTenancyRepository(context.clients.dynamoDb, requireSetting(context.config.tableNames.tenancy, 'TENANCY_TABLE')),
  );
  const cipher = memoize(() => buildTokenCipher(context));
  const apiKeyRegistry = memoize(() => buildApiKeyRegistry(context));
  const decryptedTokenCache = new DecryptedTokenCache();
  // Getters: a port is built the first time a use case reaches for it.
  const ports: TenancyPorts = {
    get tenancy() {
      return repository();
    },
    get cipher() {
      return cipher();
    },
    get apiKeyRegistry() {
      return apiKeyRegistry();
    },
    clock: context.clock,
    ids: context.ids,
    secrets: context.overrides.secrets ?? randomSecretGenerator,
    decryptedTokenCache,
  };
  return bindTenancyServices(ports);
}

export interface BroadcastServices extends SendTemplateBroadcastDependencies, EarlierSendDependencies {
  upstream: CloudApiClient;
}

function buildBroadcastSection(context: CompositionContext, tenancy: () => TenancyServices): BroadcastServices {
  const { config, clients, clock } = context;
  const messagingTable = () => requireSetting(config.tableNames.messaging, 'MESSAGING_TABLE');
  const upstream = new FetchCloudApiClient(config.upstream);
  const broadcasts = memoize(() => new DynamoDbBroadcastRepository(clients.dynamoDb, messagingTable()));
  const queue = memoize(() => new SqsOutboundQueue(clients.sqs, requireSetting(config.queueUrls.outboundMessages, 'OUTBOUND_QUEUE_URL')));
  const idempotency = memoize(
    () => new PowertoolsIdempotencyGuard(clients.dynamoDbBase, requireSetting(config.tableNames.idempotency, 'IDEMPOTENCY_TABLE')),
  );
  const senders = memoize(() => new TenancySenderDirectory(tenancy(), config.sending.defaultMessagesPerSecond));
  const billing = memoize(() => new TenancyBilling(tenancy()));
  const broadcastNames = memoize(() => new DynamoDbBroadcastNameRegistry(clients.dynamoDb, messagingTable()));
  return {
    upstream,
    templates: new TemplateCatalog(upstream, clock, config.sending.templateCacheTtlMs),
    clock,
    get senders() {
      return senders();
    },
    get broadcasts() {
      return broadcasts();
    },
    get queue() {
      return queue();
    },
    get idempotency() {
      return idempotency();
    },
    get billing() {
      return billing();
    },
    get broadcastNames() {
      return broadcastNames();
    },
  };
}

function buildOrganizationSection(tenancy: () => TenancyServices): OrganizationServices {
  return bindOrganizationServices({ removeMembers: (input) => tenancy().removeEmployees(input) });
}

function buildInboxSection(context: CompositionContext, tenancy: () => TenancyServices): InboxServices {
  const { config, clients } = context;
  const repository = memoize(() => new DynamoDbInboxRepository(clients.dynamoDb, requireSetting(config.tableNames.inbox, 'INBOX_TABLE')));
  return bindInboxServices({
    get inbox() {
      return repository();
    },
    senders: {
      listSenderPhoneNumbers: async (organizationId) => (await tenancy().repository.listPhoneNumbers(organizationId)).map((phone) => phone.digits),
    },
    clock: context.clock,
    ids: context.ids,
  });
}

function buildUpstreamWrapperSection(context: CompositionContext, tenancy: () => TenancyServices, broadcast: () => BroadcastServices): UpstreamWrapperDependencies {
  const { config, clients } = context;
  const pacer = memoize(() => new DynamoDbSendPacer(clients.dynamoDb, requireSetting(config.tableNames.messaging, 'MESSAGING_TABLE')));
  const idRecords = memoize(() => new DynamoDbWrapperIdRecords(clients.dynamoDb, requireSetting(config.tableNames.messaging, 'MESSAGING_TABLE')));
  // The ledger's message-id look-up, through the broadcast repository (not a second copy of it).
  const platformMessages = memoize(() => new BroadcastMessageIds(broadcast().broadcasts));
  const wrapper = config.upstreamWrapper;
  return {
    get tenancy() {
      return tenancy();
    },
    graph: new FetchGraphTransport(config.upstream),
    ownedIds: new OwnedIdDirectory(wrapper.ownedIdsTtlMs),
    get idRecords() {
      return idRecords();
    },
    get platformMessages() {
      return platformMessages();
    },
    get pacer() {
      return pacer();
    },
    clock: context.clock,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
    log: { warn: (message, facts) => logger.warn(message, facts) },
    settings: {
      graphBaseUrl: config.upstream.baseUrl,
      upstreamTimeoutMs: config.upstream.timeoutMs,
      defaultMessagesPerSecond: config.sending.defaultMessagesPerSecond,
      ownedIdsTtlMs: wrapper.ownedIdsTtlMs,
      bulk: {
        maxRecipients: wrapper.bulkMaxRecipients,
        budgetMs: wrapper.bulkBudgetMs,
        concurrency: wrapper.bulkConcurrency,
        ...config.sendPolicy,
      },
    },
  };
}

function buildChunkWorkerSection(context: CompositionContext, broadcast: BroadcastServices): ProcessChunkDependencies {
  const { config, clients } = context;
  const worker = config.worker;
  return {
    senders: broadcast.senders,
    broadcasts: broadcast.broadcasts,
    queue: broadcast.queue,
    upstream: broadcast.upstream,
    pacer: new DynamoDbSendPacer(clients.dynamoDb, requireSetting(config.tableNames.messaging, 'MESSAGING_TABLE')),
    clock: context.clock,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
    settings: {
      ...config.sendPolicy,
      maxInFlight: worker.maxInFlight,
      safetyMarginMs: worker.safetyMarginMs,
      outcomeBatchSize: 25,
      flushIntervalMs: 250,
    },
  };
}

export function buildServices(config: AppConfig, overrides: ServiceOverrides = {}): Services {
  const { clients, destroyBuilt } = buildAwsClients(config);
  const context: CompositionContext = {
    config,
    clients,
    clock: overrides.clock ?? systemClock,
    ids: overrides.ids ?? randomIdGenerator,
    overrides,
  };
  const tenancy = memoize(() => buildTenancySection(context));
  const broadcast = memoize(() => buildBroadcastSection(context, tenancy));
  const chunkWorker = memoize(() => buildChunkWorkerSection(context, broadcast()));
  const upstreamWrapper = memoize(() => buildUpstreamWrapperSection(context, tenancy, broadcast));
  const organizations = memoize(() => buildOrganizationSection(tenancy));
  const inbox = memoize(() => buildInboxSection(context, tenancy));
  const rateLimiter = memoize(
    () => new DynamoDbRateLimiter(clients.dynamoDb, requireSetting(config.tableNames.rateLimits, 'RATE_LIMIT_TABLE')),
  );
  const http: HttpPipelineDependencies = {
    authenticate: (kind, secret) => tenancy().authenticate(kind, secret),
    get rateLimiter() {
      return rateLimiter();
    },
    clock: context.clock,
  };
  return {
    config,
    clock: context.clock,
    ids: context.ids,
    clients,
    get tenancy() {
      return tenancy();
    },
    http,
    get broadcast() {
      return broadcast();
    },
    get chunkWorker() {
      return chunkWorker();
    },
    get upstreamWrapper() {
      return upstreamWrapper();
    },
    get organizations() {
      return organizations();
    },
    get inbox() {
      return inbox();
    },
    destroy: destroyBuilt,
  };
}

let processServices: Services | undefined;

/** The process-wide services, configured from the environment (the only read of process.env). */
export function getServices(): Services {
  processServices ??= buildServices(parseAppConfig(process.env));
  return processServices;
}

/** Forgets the process-wide services so the next getServices() reads the environment again. */
export function resetServicesForTests(): void {
  processServices?.destroy();
  processServices = undefined;
}
