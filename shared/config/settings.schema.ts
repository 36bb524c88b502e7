/**
 * Every environment variable the platform reads, with its default and a message naming the
 * variable (valibot). `app-config.ts` maps the parsed settings to the typed `AppConfig`.
 */
import * as v from 'valibot';
import { defaultOptInKeywords, defaultOptOutKeywords } from '../inbox/opt-outs';
import { sourceRangesOf } from '../meta-app/webhook-source-guard';

/** An unset or empty variable: the SDK default / the fallback applies. */
const text = (fallback = '') =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.transform((value) => value || fallback),
  );
const optionalText = v.pipe(
  v.optional(v.string()),
  v.transform((value) => value || undefined),
);
const positiveInteger = (name: string, fallback: number) =>
  v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) => (value === '' ? fallback : Number(value))),
    v.check((value) => Number.isInteger(value) && value > 0, `${name} must be a positive integer`),
  );

const nonNegativeInteger = (name: string, fallback: number) =>
  v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) => (value === '' ? fallback : Number(value))),
    v.check((value) => Number.isInteger(value) && value >= 0, `${name} must be a whole number (0 or more)`),
  );

const positiveNumber = (name: string, fallback: number) =>
  v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) => (value === '' ? fallback : Number(value))),
    v.check((value) => Number.isFinite(value) && value > 0, `${name} must be a positive number`),
  );
const flag = (name: string) =>
  v.pipe(
    v.optional(v.string(), ''),
    v.check((value) => ['', '0', '1'].includes(value), `${name} must be 0 or 1`),
    v.transform((value) => value === '1'),
  );

/** A comma-separated list of words; unset or blank: the defaults. */
const keywordList = (fallback: readonly string[]) =>
  v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) =>
      value
        .split(',')
        .map((word) => word.trim())
        .filter((word) => word !== ''),
    ),
    v.transform((words) => (words.length > 0 ? words : [...fallback])),
  );

export const settingsSchema = v.object({
  SERVICE_NAME: text('whatsapp-broadcast-platform'),
  SERVICE_VERSION: text('2.0.0'),
  AWS_REGION: optionalText,
  AWS_EXECUTION_ENV: optionalText,
  POWERTOOLS_TRACE_ENABLED: optionalText,
  AWS_DEFAULT_REGION: optionalText,
  DYNAMODB_ENDPOINT: optionalText,
  SQS_ENDPOINT: optionalText,
  KMS_ENDPOINT: optionalText,
  APIGATEWAY_ENDPOINT: optionalText,
  SCHEDULER_ENDPOINT: optionalText,
  BROADCAST_SCHEDULE_MIN_LEAD_SECONDS: positiveInteger('BROADCAST_SCHEDULE_MIN_LEAD_SECONDS', 300),
  BROADCAST_SCHEDULE_SWEEP_GRACE_SECONDS: positiveInteger('BROADCAST_SCHEDULE_SWEEP_GRACE_SECONDS', 30),
  CAMPAIGN_EXPANSION_MAX_DELAY_SECONDS: positiveInteger('CAMPAIGN_EXPANSION_MAX_DELAY_SECONDS', 900),
  // How long a container keeps an organization's contact policy (docs/CAMPAIGNS.md "Frequency caps"); 0: read per chunk message.
  CONTACT_POLICY_CACHE_SECONDS: nonNegativeInteger('CONTACT_POLICY_CACHE_SECONDS', 60),
  /** A canary's looks while its slice settles and is observed (docs/CAMPAIGNS.md "Canary and halt thresholds"). */
  CANARY_RECHECK_SECONDS: positiveInteger('CANARY_RECHECK_SECONDS', 60),
  /** Seconds between looks of a campaign's running halt thresholds (`haltIf`). */
  HALT_CHECK_SECONDS: positiveInteger('HALT_CHECK_SECONDS', 300),
  /**
   * The OpenID Connect issuers whose people may sign in (docs/PEOPLE.md): a JSON array of
   * `{ "issuer": "https://…", "audience": "<client id>", "userInfo"?: true }`; unset or `[]`: people cannot sign in.
   */
  PEOPLE_OIDC_ISSUERS: v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) => (value.trim() === '' ? '[]' : value)),
    v.check((value) => {
      try {
        return Array.isArray(JSON.parse(value));
      } catch {
        return false;
      }
    }, 'PEOPLE_OIDC_ISSUERS must be a JSON array of { issuer, audience }'),
    v.transform((value) => JSON.parse(value) as unknown[]),
    v.array(
      v.object({
        issuer: v.pipe(v.string('PEOPLE_OIDC_ISSUERS[].issuer must be a string'), v.url('PEOPLE_OIDC_ISSUERS[].issuer must be a URL')),
        audience: v.pipe(v.string('PEOPLE_OIDC_ISSUERS[].audience must be a string'), v.minLength(1, 'PEOPLE_OIDC_ISSUERS[].audience must not be empty')),
        userInfo: v.optional(v.boolean('PEOPLE_OIDC_ISSUERS[].userInfo must be true or false')),
      }),
    ),
  ),
  /** The console signs a person out after this many minutes without activity (default 30). */
  CONSOLE_IDLE_MINUTES: positiveInteger('CONSOLE_IDLE_MINUTES', 30),
  BROADCAST_SCHEDULE_GROUP: optionalText,
  BROADCAST_SCHEDULER_ROLE_ARN: optionalText,
  BROADCAST_SCHEDULER_TARGET_ARN: optionalText,
  GRAPH_API_BASE_URL: v.pipe(
    text('https://graph.facebook.com'),
    v.url('GRAPH_API_BASE_URL must be a URL'),
    v.transform((value) => value.replace(/\/+$/, '')),
  ),
  GRAPH_API_VERSION: text('v25.0'),
  /** Tracked links' base (docs/OUTCOMES.md "Tracked links"): the clicks surface's stage URL, the stack output ClickBaseUrl; unset: no tracked links. */
  CLICK_BASE_URL: v.pipe(
    optionalText,
    v.check(
      (value) => value === undefined || /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(value),
      'CLICK_BASE_URL must be an http(s) URL without query or fragment',
    ),
    v.transform((value) => value?.replace(/\/+$/, '')),
  ),
  UPSTREAM_TIMEOUT_MS: positiveInteger('UPSTREAM_TIMEOUT_MS', 15_000),
  // How long one DynamoDB request may take to answer (functions/composition/dynamodb-clients.ts). The
  // test suites raise it: their emulator shares one loaded event loop with every function (docs/TESTING.md).
  STORE_REQUEST_TIMEOUT_MS: positiveInteger('STORE_REQUEST_TIMEOUT_MS', 2_000),
  TOKEN_KMS_KEY_ID: optionalText,
  LOCAL_TOKEN_KEY: optionalText,
  BROADCAST_USAGE_PLAN_ID: optionalText,
  // The identity provider's accounts the people routes manage (granted to broadcast-people only; docs/PEOPLE.md "People").
  PEOPLE_USER_POOL_ID: optionalText,
  LOCAL_IDENTITY_ADMIN_URL: optionalText,
  LOCAL_IDENTITY_ADMIN_SECRET: optionalText,
  META_EVENTS_DEAD_LETTER_QUEUE_URL: optionalText,
  DEFAULT_MESSAGES_PER_SECOND: positiveInteger('DEFAULT_MESSAGES_PER_SECOND', 30),
  TEMPLATE_CACHE_TTL_MS: positiveInteger('TEMPLATE_CACHE_TTL_MS', 60_000),
  UPSTREAM_BULK_MAX_RECIPIENTS: positiveInteger('UPSTREAM_BULK_MAX_RECIPIENTS', 100),
  UPSTREAM_BULK_BUDGET_MS: positiveInteger('UPSTREAM_BULK_BUDGET_MS', 25_000),
  UPSTREAM_BULK_CONCURRENCY: positiveInteger('UPSTREAM_BULK_CONCURRENCY', 16),
  UPSTREAM_OWNED_IDS_TTL_MS: positiveInteger('UPSTREAM_OWNED_IDS_TTL_MS', 60_000),
  TENANCY_CACHE_CREDENTIAL_TTL_MS: positiveInteger('TENANCY_CACHE_CREDENTIAL_TTL_MS', 30_000),
  TENANCY_CACHE_RECORD_TTL_MS: positiveInteger('TENANCY_CACHE_RECORD_TTL_MS', 60_000),
  TENANCY_CACHE_MAX_ENTRIES: positiveInteger('TENANCY_CACHE_MAX_ENTRIES', 5_000),
  DECRYPTED_TOKEN_CACHE_TTL_MS: positiveInteger('DECRYPTED_TOKEN_CACHE_TTL_MS', 300_000),
  // Each minted key is an API Gateway key; the account's quota (10,000 by default) is per Region.
  GENERATED_KEYS_PER_ORGANIZATION: positiveInteger('GENERATED_KEYS_PER_ORGANIZATION', 50),
  // Lanes per chunk invocation follow Little's law between these (shared/sending/in-flight-budget.ts);
  // each holds a socket, and Lambda allows 1,024 file descriptors.
  WORKER_MAX_IN_FLIGHT: positiveInteger('WORKER_MAX_IN_FLIGHT', 512),
  WORKER_MIN_IN_FLIGHT: positiveInteger('WORKER_MIN_IN_FLIGHT', 16),
  WORKER_LATENCY_PRIOR_MS: positiveInteger('WORKER_LATENCY_PRIOR_MS', 500),
  WORKER_MAX_ATTEMPTS: positiveInteger('WORKER_MAX_ATTEMPTS', 6),
  WORKER_BACKOFF_BASE_MS: positiveInteger('WORKER_BACKOFF_BASE_MS', 200),
  WORKER_BACKOFF_MAX_MS: positiveInteger('WORKER_BACKOFF_MAX_MS', 5_000),
  WORKER_RATE_LIMIT_HOLD_MS: positiveInteger('WORKER_RATE_LIMIT_HOLD_MS', 1_000),
  WORKER_SAFETY_MARGIN_MS: positiveInteger('WORKER_SAFETY_MARGIN_MS', 15_000),
  // SQS delays a message at most 15 minutes.
  PAUSE_RECHECK_SECONDS: v.pipe(
    positiveInteger('PAUSE_RECHECK_SECONDS', 60),
    v.check((value) => value <= 900, 'PAUSE_RECHECK_SECONDS must be at most 900 (the longest SQS delay)'),
  ),
  // Recipients outside their send window (or deferred by a frequency cap) are looked at again at most this often (docs/CAMPAIGNS.md "Send windows").
  SEND_WINDOW_RECHECK_SECONDS: v.pipe(
    positiveInteger('SEND_WINDOW_RECHECK_SECONDS', 900),
    v.check((value) => value <= 900, 'SEND_WINDOW_RECHECK_SECONDS must be at most 900 (the longest SQS delay)'),
  ),
  // Meta pauses a template for 3 hours the first time and 6 hours the second (docs/BROADCAST.md).
  TEMPLATE_PAUSE_TIMEOUT_MINUTES: positiveNumber('TEMPLATE_PAUSE_TIMEOUT_MINUTES', 390),
  UNCONFIRMED_AFTER_HOURS: positiveNumber('UNCONFIRMED_AFTER_HOURS', 24),
  OPT_OUT_KEYWORDS: keywordList(defaultOptOutKeywords),
  OPT_IN_KEYWORDS: keywordList(defaultOptInKeywords),
  CUSTOMER_EVENT_RETRY_HOURS: positiveNumber('CUSTOMER_EVENT_RETRY_HOURS', 24),
  CUSTOMER_EVENT_BACKOFF_BASE_MS: positiveInteger('CUSTOMER_EVENT_BACKOFF_BASE_MS', 10_000),
  // SQS delays a message by at most 15 minutes; a longer wait would need a second hop for nothing.
  CUSTOMER_EVENT_BACKOFF_CAP_MS: v.pipe(
    positiveInteger('CUSTOMER_EVENT_BACKOFF_CAP_MS', 900_000),
    v.check((value) => value <= 900_000, 'CUSTOMER_EVENT_BACKOFF_CAP_MS must be at most 900000 (the SQS delay limit)'),
  ),
  CUSTOMER_EVENT_TIMEOUT_MS: positiveInteger('CUSTOMER_EVENT_TIMEOUT_MS', 10_000),
  // Each endpoint's fair share of the dispatcher (docs/CUSTOMER-WEBHOOKS.md "Fairness").
  CUSTOMER_EVENT_ENDPOINT_CONCURRENCY: positiveInteger('CUSTOMER_EVENT_ENDPOINT_CONCURRENCY', 2),
  CUSTOMER_EVENT_ENDPOINT_BURST_CONCURRENCY: nonNegativeInteger('CUSTOMER_EVENT_ENDPOINT_BURST_CONCURRENCY', 6),
  CUSTOMER_EVENT_ENDPOINT_SLOT_BUDGET_MS: positiveInteger('CUSTOMER_EVENT_ENDPOINT_SLOT_BUDGET_MS', 8_000),
  CUSTOMER_EVENT_ORGANIZATION_CONCURRENCY: positiveInteger('CUSTOMER_EVENT_ORGANIZATION_CONCURRENCY', 10),
  CUSTOMER_EVENT_FAILING_TIMEOUT_MS: positiveInteger('CUSTOMER_EVENT_FAILING_TIMEOUT_MS', 2_500),
  CUSTOMER_EVENT_BREAKER_THRESHOLD: positiveInteger('CUSTOMER_EVENT_BREAKER_THRESHOLD', 5),
  CUSTOMER_EVENT_BREAKER_BASE_MS: positiveInteger('CUSTOMER_EVENT_BREAKER_BASE_MS', 30_000),
  CUSTOMER_EVENT_BREAKER_CAP_MS: v.pipe(
    positiveInteger('CUSTOMER_EVENT_BREAKER_CAP_MS', 900_000),
    v.check((value) => value <= 900_000, 'CUSTOMER_EVENT_BREAKER_CAP_MS must be at most 900000 (the SQS delay limit)'),
  ),
  CUSTOMER_EVENT_REDELIVERIES_PER_DAY: positiveInteger('CUSTOMER_EVENT_REDELIVERIES_PER_DAY', 5_000),
  /**
   * The only source addresses Meta's webhook endpoint hears (comma-separated CIDR ranges, e.g. Meta's
   * published ones); unset: every address (shared/meta-app/webhook-source-guard.ts).
   */
  META_WEBHOOK_SOURCE_RANGES: v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) =>
      value
        .split(',')
        .map((range) => range.trim())
        .filter((range) => range !== ''),
    ),
    v.check((ranges) => {
      try {
        sourceRangesOf(ranges);
        return true;
      } catch {
        return false;
      }
    }, 'META_WEBHOOK_SOURCE_RANGES must be comma-separated CIDR ranges (e.g. 157.240.0.0/16,2a03:2880::/32)'),
  ),
  /** Local mode only (set by the local runtime): loopback receivers over plain http. */
  CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK: flag('CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK'),
});

/** The parsed settings. */
export type Settings = v.InferOutput<typeof settingsSchema>;
