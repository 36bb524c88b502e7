/** The DynamoDB clients (the only composition module importing the DynamoDB SDK client). */
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DirectDynamoDbCalls } from '../../shared/adapters/sdk/direct-dynamodb-calls';
import { withResolvedHandlers } from '../../shared/adapters/sdk/resolved-handlers';
import { withoutSdkLogging } from '../../shared/adapters/sdk/without-sdk-logging';
import { parseStoreTimeoutConfig } from '../../shared/config/app-config';
import type { CompositionContext } from './composition-context';

export interface DynamoDbClients {
  /** Document client (plain JS values, undefined attributes dropped). */
  readonly document: DynamoDBDocumentClient;
  /** The same connection without marshalling, for libraries that speak raw AttributeValues (Powertools). */
  readonly base: DynamoDBClient;
}

/**
 * DynamoDB answers in milliseconds; a request that takes seconds is a network problem. Failing
 * after 2 s (STORE_REQUEST_TIMEOUT_MS) with one retry keeps authentication inside API Gateway's
 * 29 s and lets the handler answer 503 (the contract's "authentication storage timed out") instead of hanging.
 */
const CONNECTION_TIMEOUT_MS = 1_000;
/** STORE_REQUEST_TIMEOUT_MS's default, for the benches that build clients without a configuration. */
const DEFAULT_REQUEST_TIMEOUT_MS = parseStoreTimeoutConfig({}).requestTimeoutMs;
const maxAttempts = 2;

const translateConfig = { marshallOptions: { removeUndefinedValues: true } };

/** The same limits for calls sent directly (shared/adapters/sdk/direct-dynamodb-calls.ts; also the `--only=sdk` bench's); 50 sockets as the SDK's handler. */
export function directCallSettings(requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS) {
  return { timeoutMs: requestTimeoutMs, maxAttempts, maxSockets: 50, ...translateConfig };
}

/** Every function's DynamoDB client settings (also the `--only=sdk` bench's baseline). */
export function dynamoDbClientSettings(region: string, endpoint: string | undefined, requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): DynamoDBClientConfig {
  return {
    region,
    endpoint,
    maxAttempts,
    requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS, requestTimeout: requestTimeoutMs, throwOnRequestTimeout: true },
  };
}

/**
 * The longest one store call can take: each of its attempts connecting and answering at their limits.
 *
 * @example
 * storeCallLimitMs(2_000); // 6000
 */
export function storeCallLimitMs(requestTimeoutMs: number): number {
  return maxAttempts * (CONNECTION_TIMEOUT_MS + requestTimeoutMs);
}

export function dynamoDbClients(context: CompositionContext): DynamoDbClients {
  const { region, endpoints, store } = context.config;
  // Pooled by their settings: the answer limit is one of them.
  const settings = `${region} ${endpoints.dynamodb ?? ''} ${store.requestTimeoutMs}`;
  // No SDK logger: its middleware's per-call copy of input and output goes too (without-sdk-logging.ts).
  const base = () =>
    context.client(`dynamodb ${settings}`, () =>
      withoutSdkLogging(new DynamoDBClient(dynamoDbClientSettings(region, endpoints.dynamodb, store.requestTimeoutMs))),
    );
  // Pooled beside the client, so its connections close with the client's.
  const direct = (client: DynamoDBClient) =>
    context.config.tracingEnabled
      ? undefined
      : context.client(`dynamodb-direct ${settings}`, () => new DirectDynamoDbCalls(client.config as never, directCallSettings(store.requestTimeoutMs)));
  let document: DynamoDBDocumentClient | undefined;
  let documentOf: DynamoDBClient | undefined;
  return {
    get base() {
      return base();
    },
    get document() {
      const client = base();
      if (documentOf !== client) {
        // Each command class's middleware stack resolved once, not per call, and item operations sent
        // directly where no tracer wraps the client (docs/PERFORMANCE.md "SDK per-call cost").
        document = withResolvedHandlers(DynamoDBDocumentClient.from(client, translateConfig), direct(client));
        documentOf = client;
      }
      return document!;
    },
  };
}
