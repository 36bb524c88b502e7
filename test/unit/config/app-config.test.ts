import { ConfigurationError, parseAppConfig, parseFunctionConfig, parseHealthConfig, parseStoreTimeoutConfig } from '../../../shared/config/app-config';
import { dynamoDbClientSettings } from '../../../functions/composition/dynamodb-clients';
import { storeRetryMarginMs } from '../../../functions/composition/store-retries';
import { environmentOf, functions, variablesOf } from '../../../runtime-contract/resource-definitions';

const messageOf = (parse: () => unknown): string => {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('parsed without an error');
};

describe('configuration (valibot, parsed once at init)', () => {
  test('defaults apply to unset and empty variables', () => {
    const config = parseAppConfig({ WORKER_MAX_ATTEMPTS: '', GRAPH_API_BASE_URL: 'http://127.0.0.1:9/' });
    expect(config.sendPolicy.maxAttempts).toBe(6);
    expect(config.upstream).toEqual({ baseUrl: 'http://127.0.0.1:9', version: 'v25.0', timeoutMs: 15_000 });
    expect(config.tableNames.tenancy).toBe('');
    expect(config.tokenEncryption).toEqual({ kind: 'unconfigured' });
  });

  test('every error names its variable', () => {
    expect(messageOf(() => parseAppConfig({ WORKER_MAX_ATTEMPTS: '0' }))).toBe('WORKER_MAX_ATTEMPTS must be a positive integer');
    expect(messageOf(() => parseAppConfig({ UPSTREAM_TIMEOUT_MS: 'soon', GRAPH_API_BASE_URL: 'not a url' }))).toBe(
      'GRAPH_API_BASE_URL must be a URL; UPSTREAM_TIMEOUT_MS must be a positive integer',
    );
  });

  test("the store's answer limit: STORE_REQUEST_TIMEOUT_MS (default 2,000) sizes the clients and the retries' margin", () => {
    expect(parseAppConfig({}).store).toEqual({ requestTimeoutMs: 2_000 });
    expect(parseStoreTimeoutConfig({ STORE_REQUEST_TIMEOUT_MS: '10000' })).toEqual({ requestTimeoutMs: 10_000 });
    expect(dynamoDbClientSettings('eu-west-1', undefined, 10_000).requestHandler).toMatchObject({ requestTimeout: 10_000, connectionTimeout: 1_000 });
    // Two attempts at 1 s to connect and the limit to answer, then 4 s to fail the record.
    expect(storeRetryMarginMs(parseStoreTimeoutConfig({}))).toBe(10_000);
    expect(storeRetryMarginMs({ requestTimeoutMs: 10_000 })).toBe(26_000);
    expect(messageOf(() => parseStoreTimeoutConfig({ STORE_REQUEST_TIMEOUT_MS: '0' }))).toBe('STORE_REQUEST_TIMEOUT_MS must be a positive integer');
  });

  test('send windows: SEND_WINDOW_RECHECK_SECONDS (default 900, at most the 900 s SQS delay)', () => {
    expect(parseAppConfig({}).worker.waitingRecheckSeconds).toBe(900);
    expect(parseAppConfig({ SEND_WINDOW_RECHECK_SECONDS: '1' }).worker.waitingRecheckSeconds).toBe(1);
    expect(messageOf(() => parseAppConfig({ SEND_WINDOW_RECHECK_SECONDS: '901' }))).toBe(
      'SEND_WINDOW_RECHECK_SECONDS must be at most 900 (the longest SQS delay)',
    );
  });

  test('template pauses: PAUSE_RECHECK_SECONDS (default 60, at most the 900 s SQS delay) and TEMPLATE_PAUSE_TIMEOUT_MINUTES (default 390)', () => {
    expect(parseAppConfig({}).worker).toMatchObject({ pauseRecheckSeconds: 60, templatePauseTimeoutMs: 390 * 60_000 });
    expect(parseAppConfig({ PAUSE_RECHECK_SECONDS: '900', TEMPLATE_PAUSE_TIMEOUT_MINUTES: '0.05' }).worker).toMatchObject({
      pauseRecheckSeconds: 900,
      templatePauseTimeoutMs: 3_000,
    });
    expect(messageOf(() => parseAppConfig({ PAUSE_RECHECK_SECONDS: '901' }))).toBe('PAUSE_RECHECK_SECONDS must be at most 900 (the longest SQS delay)');
    expect(messageOf(() => parseAppConfig({ TEMPLATE_PAUSE_TIMEOUT_MINUTES: '0' }))).toBe('TEMPLATE_PAUSE_TIMEOUT_MINUTES must be a positive number');
  });

  test('UNCONFIRMED_AFTER_HOURS sets the window after which an unresolved unknown outcome reads UNCONFIRMED (default 24 h)', () => {
    expect(parseAppConfig({}).delivery.unconfirmedAfterMs).toBe(24 * 3_600_000);
    expect(parseAppConfig({ UNCONFIRMED_AFTER_HOURS: '0.5' }).delivery.unconfirmedAfterMs).toBe(1_800_000);
    expect(messageOf(() => parseAppConfig({ UNCONFIRMED_AFTER_HOURS: '-1' }))).toBe('UNCONFIRMED_AFTER_HOURS must be a positive number');
  });

  test("a function's granted tables and queues must be named at init", () => {
    expect(messageOf(() => parseFunctionConfig('broadcast-status', { TENANCY_TABLE: 't' }))).toBe(
      'MESSAGING_TABLE, RATE_LIMIT_TABLE are not configured (broadcast-status)',
    );
    expect(messageOf(() => parseFunctionConfig('chunk-worker', { TENANCY_TABLE: 't', MESSAGING_TABLE: 'm', INBOX_TABLE: 'i' }))).toBe(
      'OUTBOUND_QUEUE_URL, CUSTOMER_EVENTS_QUEUE_URL are not configured (chunk-worker)',
    );
    expect(parseFunctionConfig('broadcast-status', { TENANCY_TABLE: 't', MESSAGING_TABLE: 'm', RATE_LIMIT_TABLE: 'r' }).tableNames.messaging).toBe('m');
  });

  test('health reads only its name, and checks it too', () => {
    expect(parseHealthConfig({})).toEqual({ serviceName: 'whatsapp-broadcast-platform' });
    expect(parseHealthConfig({ SERVICE_NAME: 'svc', TENANCY_TABLE: 'ignored' })).toEqual({ serviceName: 'svc' });
  });
});

describe("a function's own environment", () => {
  const platform = {
    AWS_REGION: 'eu-west-1',
    DYNAMODB_ENDPOINT: 'http://127.0.0.1:1',
    WORKER_MAX_ATTEMPTS: '3',
    TENANCY_TABLE: 'tenancy',
    MESSAGING_TABLE: 'messaging',
    INBOX_TABLE: 'inbox',
    RATE_LIMIT_TABLE: 'limits',
    IDEMPOTENCY_TABLE: 'idempotency',
    AUDIT_TABLE: 'audit',
    OUTBOUND_QUEUE_URL: 'http://queue',
    META_EVENTS_QUEUE_URL: 'http://meta-events',
    CUSTOMER_EVENTS_QUEUE_URL: 'http://customer-events',
    CUSTOMER_EVENTS_DEAD_LETTER_QUEUE_URL: 'http://customer-events-dlq',
    CAMPAIGN_EXPANSION_QUEUE_URL: 'http://campaign-expansion',
    OUTBOUND_DEAD_LETTER_QUEUE_URL: 'http://queue-dlq',
    SINGLE_MESSAGES_QUEUE_URL: 'http://single',
    SINGLE_MESSAGES_DEAD_LETTER_QUEUE_URL: 'http://single-dlq',
    LOCAL_TOKEN_KEY: 'key',
    GRAPH_API_BASE_URL: 'http://graph',
  };

  test('keeps what the definition grants and the platform variables, drops the rest', () => {
    expect(environmentOf('broadcast-status', platform)).toEqual({
      AWS_REGION: 'eu-west-1',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:1',
      WORKER_MAX_ATTEMPTS: '3',
      TENANCY_TABLE: 'tenancy',
      MESSAGING_TABLE: 'messaging',
      RATE_LIMIT_TABLE: 'limits',
    });
    expect(environmentOf('health', platform)).toEqual({ AWS_REGION: 'eu-west-1', DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', WORKER_MAX_ATTEMPTS: '3' });
    expect(environmentOf('chunk-worker', platform)).toMatchObject({
      OUTBOUND_QUEUE_URL: 'http://queue',
      LOCAL_TOKEN_KEY: 'key',
      GRAPH_API_BASE_URL: 'http://graph',
    });
    // A dead-letter queue only for the function that parks messages there itself.
    expect(environmentOf('customer-events', platform)).toMatchObject({ CUSTOMER_EVENTS_DEAD_LETTER_QUEUE_URL: 'http://customer-events-dlq' });
    expect(environmentOf('chunk-worker', platform).CUSTOMER_EVENTS_DEAD_LETTER_QUEUE_URL).toBeUndefined();
    // The consumer of a dead-letter queue gets that queue's URL (receivesFrom), and no token key nor Graph API.
    expect(environmentOf('chunk-dead-letters', platform)).toMatchObject({
      OUTBOUND_DEAD_LETTER_QUEUE_URL: 'http://queue-dlq',
      CUSTOMER_EVENTS_QUEUE_URL: 'http://customer-events',
    });
    expect(environmentOf('chunk-dead-letters', platform)).not.toHaveProperty('LOCAL_TOKEN_KEY');
    expect(environmentOf('chunk-worker', platform).OUTBOUND_DEAD_LETTER_QUEUE_URL).toBeUndefined();
    // The lanes (docs/SCALE.md "The single-message lane"): each worker names its own queue only; chunk-dead-letters both dead-letter queues.
    expect(environmentOf('chunk-worker', platform)).not.toHaveProperty('SINGLE_MESSAGES_QUEUE_URL');
    expect(environmentOf('single-sender', platform)).toMatchObject({
      SINGLE_MESSAGES_QUEUE_URL: 'http://single',
      LOCAL_TOKEN_KEY: 'key',
      GRAPH_API_BASE_URL: 'http://graph',
    });
    expect(environmentOf('single-sender', platform)).not.toHaveProperty('OUTBOUND_QUEUE_URL');
    expect(environmentOf('chunk-dead-letters', platform)).toMatchObject({
      OUTBOUND_DEAD_LETTER_QUEUE_URL: 'http://queue-dlq',
      SINGLE_MESSAGES_DEAD_LETTER_QUEUE_URL: 'http://single-dlq',
    });
    expect(environmentOf('broadcast-send', platform)).toMatchObject({ OUTBOUND_QUEUE_URL: 'http://queue', SINGLE_MESSAGES_QUEUE_URL: 'http://single' });
  });

  test('every function starts with its own environment taken from the whole platform', () => {
    for (const name of Object.keys(functions) as Array<keyof typeof functions>) {
      const own = environmentOf(name, platform);
      for (const variable of variablesOf(functions[name]).required) expect(own[variable]).toBeDefined();
      if (name !== 'health') expect(() => parseFunctionConfig(name, own)).not.toThrow();
    }
  });
});
