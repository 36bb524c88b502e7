/**
 * Run-time configuration, parsed from an environment map.
 *
 * The function takes the map as an argument (the composition module passes process.env)
 * so domain code never reads the environment itself. Endpoints are plain settings: the
 * same code talks to AWS, LocalStack or the local emulators depending only on them.
 */
import { tables, queues, type TableName, type QueueName } from '../../runtime-contract/resource-definitions';
import type { SendPolicySettings } from '../sending/send-policy';

export interface AppConfig {
  serviceName: string;
  serviceVersion: string;
  region: string;
  /** Per-service endpoint overrides; undefined means the SDK's default (real AWS). */
  endpoints: { dynamodb?: string; sqs?: string; kms?: string; apiGateway?: string };
  tableNames: Record<TableName, string>;
  queueUrls: Record<QueueName, string>;
  upstream: { baseUrl: string; version: string; timeoutMs: number };
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
   * Retries, backoff and the rate-limit hold of every send (chunk worker and /upstream bulk send;
   * shared/sending/send-policy.ts). The variables keep their WORKER_ names.
   */
  sendPolicy: SendPolicySettings;
  /** Chunk-worker tuning; defaults suit Meta's latency, tests shorten the waits. */
  worker: {
    maxInFlight: number;
    safetyMarginMs: number;
  };
}

export type Environment = Readonly<Record<string, string | undefined>>;

export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

const positiveInteger = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new ConfigurationError(`${name} must be a positive integer`);
  return parsed;
};

export function parseAppConfig(env: Environment): AppConfig {
  const tableNames = Object.fromEntries(
    Object.values(tables).map((table) => [table.name, env[table.envVar] ?? '']),
  ) as Record<TableName, string>;
  const queueUrls = Object.fromEntries(
    Object.values(queues).map((queue) => [queue.name, env[queue.envVar] ?? '']),
  ) as Record<QueueName, string>;

  const tokenEncryption: AppConfig['tokenEncryption'] = env.TOKEN_KMS_KEY_ID
    ? { kind: 'kms', keyId: env.TOKEN_KMS_KEY_ID }
    : env.LOCAL_TOKEN_KEY
      ? { kind: 'local', keyBase64: env.LOCAL_TOKEN_KEY }
      : { kind: 'unconfigured' };

  return {
    serviceName: env.SERVICE_NAME ?? 'whatsapp-broadcast-platform',
    serviceVersion: env.SERVICE_VERSION ?? '2.0.0',
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    endpoints: {
      dynamodb: env.DYNAMODB_ENDPOINT || undefined,
      sqs: env.SQS_ENDPOINT || undefined,
      kms: env.KMS_ENDPOINT || undefined,
      apiGateway: env.APIGATEWAY_ENDPOINT || undefined,
    },
    tableNames,
    queueUrls,
    upstream: {
      baseUrl: (env.GRAPH_API_BASE_URL ?? 'https://graph.facebook.com').replace(/\/+$/, ''),
      version: env.GRAPH_API_VERSION ?? 'v25.0',
      timeoutMs: positiveInteger(env.UPSTREAM_TIMEOUT_MS, 15_000, 'UPSTREAM_TIMEOUT_MS'),
    },
    tokenEncryption,
    usagePlans: { broadcastUsagePlanId: env.BROADCAST_USAGE_PLAN_ID || undefined },
    sending: {
      defaultMessagesPerSecond: positiveInteger(env.DEFAULT_MESSAGES_PER_SECOND, 30, 'DEFAULT_MESSAGES_PER_SECOND'),
      templateCacheTtlMs: positiveInteger(env.TEMPLATE_CACHE_TTL_MS, 60_000, 'TEMPLATE_CACHE_TTL_MS'),
    },
    upstreamWrapper: {
      bulkMaxRecipients: positiveInteger(env.UPSTREAM_BULK_MAX_RECIPIENTS, 100, 'UPSTREAM_BULK_MAX_RECIPIENTS'),
      bulkBudgetMs: positiveInteger(env.UPSTREAM_BULK_BUDGET_MS, 25_000, 'UPSTREAM_BULK_BUDGET_MS'),
      bulkConcurrency: positiveInteger(env.UPSTREAM_BULK_CONCURRENCY, 16, 'UPSTREAM_BULK_CONCURRENCY'),
      ownedIdsTtlMs: positiveInteger(env.UPSTREAM_OWNED_IDS_TTL_MS, 60_000, 'UPSTREAM_OWNED_IDS_TTL_MS'),
    },
    sendPolicy: {
      maxAttempts: positiveInteger(env.WORKER_MAX_ATTEMPTS, 6, 'WORKER_MAX_ATTEMPTS'),
      backoff: {
        baseMs: positiveInteger(env.WORKER_BACKOFF_BASE_MS, 200, 'WORKER_BACKOFF_BASE_MS'),
        maxMs: positiveInteger(env.WORKER_BACKOFF_MAX_MS, 5_000, 'WORKER_BACKOFF_MAX_MS'),
      },
      rateLimitHoldMs: positiveInteger(env.WORKER_RATE_LIMIT_HOLD_MS, 1_000, 'WORKER_RATE_LIMIT_HOLD_MS'),
    },
    worker: {
      maxInFlight: positiveInteger(env.WORKER_MAX_IN_FLIGHT, 64, 'WORKER_MAX_IN_FLIGHT'),
      safetyMarginMs: positiveInteger(env.WORKER_SAFETY_MARGIN_MS, 15_000, 'WORKER_SAFETY_MARGIN_MS'),
    },
  };
}

/** Fails fast with a message that names the missing setting, instead of a confusing SDK error later. */
export function requireSetting<T extends string>(value: T, name: string): T {
  if (!value) throw new ConfigurationError(`${name} is not configured`);
  return value;
}
