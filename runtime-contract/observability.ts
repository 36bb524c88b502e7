/**
 * What the platform measures and when it wakes someone up, as plain data.
 *
 * Metric names and the namespace are shared by the code that emits them (Powertools Metrics, EMF)
 * and by the CDK app's dashboard; alarm thresholds are read by the observability construct
 * (`lib/constructs/platform-alarms.ts`), which watches every function, queue and REST API the
 * resource definitions and the route manifest declare. See docs/OPERATIONS.md.
 */
import type { QueueName } from './resource-definitions';

/** CloudWatch namespace of the platform's own metrics (overridable with `-c metricsNamespace=...`). */
export const defaultMetricsNamespace = 'WhatsAppBroadcastPlatform';

/** Names of the business metrics the functions emit (EMF); one place, so code and dashboard agree. */
export const platformMetrics = {
  /** Messages Meta accepted (a wamid came back). Unit: Count. */
  messagesSent: 'MessagesSent',
  /** Messages that failed for good (non-retryable answer or attempt budget spent). Unit: Count. */
  messagesFailed: 'MessagesFailed',
  /** Sends whose outcome is unknown (timeout after the request left): never retried, reconciled from webhooks. Unit: Count. */
  messagesUnknown: 'MessagesUnknown',
  /** 130429 (throughput) answers that put a sender's pacer on hold. Unit: Count. */
  rateLimitHolds: 'RateLimitHolds',
  /** Wall-clock time of one chunk from claim to settle. Unit: Milliseconds. */
  chunkDuration: 'ChunkDuration',
  /** Meta webhook events applied by delivery-events. Unit: Count. */
  webhookEventsApplied: 'WebhookEventsApplied',
  /** Chunk messages that reached a lane's dead-letter queue (outbound or single messages) and were settled there by chunk-dead-letters. Unit: Count. */
  chunksDeadLettered: 'ChunksDeadLettered',
  /** Audit entries not recorded after their retries (the call itself was answered as decided; docs/PEOPLE.md "Audit log"). Unit: Count. */
  auditWriteFailed: 'AuditWriteFailed',
  /** Tracked-link clicks whose count or `link.clicked` failed after its retries (the person was still redirected; docs/OUTCOMES.md "The redirect"). Unit: Count. */
  clicksNotCounted: 'ClicksNotCounted',
} as const;

export type PlatformMetricName = (typeof platformMetrics)[keyof typeof platformMetrics];

/** One alarm's trigger: the statistic over `periodSeconds` must breach in `evaluationPeriods` consecutive periods. */
export interface AlarmThreshold {
  threshold: number;
  periodSeconds: number;
  evaluationPeriods: number;
}

/**
 * Alarm thresholds. Every alarm treats missing data as not breaching: a quiet function or an
 * empty queue publishes nothing and is healthy.
 */
export const alarmThresholds = {
  functions: {
    /** Lambda `Errors` counts crashes, timeouts and unhandled rejections only: the HTTP pipeline
     * answers handled failures itself and the queue consumers report failed records as batch item
     * failures. So one error is already a defect worth a look. Sum per 5 minutes ≥ 1. */
    errors: { threshold: 1, periodSeconds: 300, evaluationPeriods: 1 },
    /** Throttles mean the account's (or a reserved) concurrency is exhausted: API callers get 5xx
     * and queue consumers fall behind. The event sources cap their own concurrency (maxConcurrency),
     * so a throttle is never expected. Sum per 5 minutes ≥ 1. */
    throttles: { threshold: 1, periodSeconds: 300, evaluationPeriods: 1 },
  },
  deadLetterQueues: {
    /** Anything in a dead-letter queue is work that gave up (a chunk, a Meta batch, a customer
     * delivery) and needs a human: inspect and replay. Maximum visible messages per 5 minutes > 0. */
    depth: { threshold: 0, periodSeconds: 300, evaluationPeriods: 1 },
    /** A dead letter nobody handled: fires at half the queue's retention, while there is still
     * time to replay before SQS deletes it (see `deadLetterAgeThresholdSeconds`). */
    ageFractionOfRetention: 0.5,
    /** A dead-letter queue a function consumes (the lanes' ones: chunk-dead-letters) is emptied
     * within seconds, so its depth rarely shows; a message older than this is one the consumer
     * keeps failing to settle (it retries every visibility timeout, 6 minutes): look at it. Seconds. */
    consumedAgeSeconds: 60 * 60,
  },
  /** A chunk that reached the dead-letter queue: settled (its job finishes, the unsent recipients
   * fail WORKER_ERROR), but something crashed, timed out or lost its store on the last of five
   * deliveries: a defect or an outage worth a look. `ChunksDeadLettered` sum per 5 minutes ≥ 1. */
  chunksDeadLettered: { threshold: 1, periodSeconds: 300, evaluationPeriods: 1 },
  /** A state-changing call whose audit entry could not be written (the audit table unreachable for
   * over a second): the record of who did what has a hole. `AuditWriteFailed` sum per 5 minutes ≥ 1,
   * per function that records. */
  auditWriteFailed: { threshold: 1, periodSeconds: 300, evaluationPeriods: 1 },
  /**
   * Age of the oldest message of each working queue, seconds (maximum over 5 minutes, two periods
   * in a row so a single slow batch does not page). A new queue gets `default` until it has its own.
   */
  queueAgeSeconds: {
    /** A chunk of ≤ 1,000 recipients takes seconds at 80 messages/s per number (longer with 130429
     * holds and backoff); 20 workers run at once. A chunk waiting 15 minutes means workers are
     * stuck, throttled or failing, and broadcasts are late. */
    outboundMessages: 15 * 60,
    /** A single message (free-form, one-recipient broadcast, send-single) is sent within seconds of
     * its accept; one waiting 5 minutes means single-sender is stuck, throttled or failing, and
     * conversations are late. */
    singleMessages: 5 * 60,
    /** Statuses, inbound messages and template states lag by this much; customers see stale
     * delivery counts and late events after 10 minutes. */
    metaEvents: 10 * 60,
    /** A retry is a new message with at most SQS's 15-minute delay; an hour-old message means the
     * dispatcher is not consuming. */
    customerEvents: 60 * 60,
    /** A campaign waiting for the messaging limit or a pause re-queues itself with up to SQS's 15-minute delay: older than an hour, nobody expands. */
    campaignExpansion: 60 * 60,
    default: 15 * 60,
  } satisfies Partial<Record<QueueName, number>> & { default: number },
  queueAge: { periodSeconds: 300, evaluationPeriods: 2 },
  apis: {
    /** Share of requests answered 5xx (the stage's `5XXError` average), over 5 minutes, twice in a
     * row: a store outage answers 503 on every request; a lone 500 among many requests does not page. */
    serverErrorRate: { threshold: 0.05, periodSeconds: 300, evaluationPeriods: 2 },
    /** p99 of the stage's `Latency`, milliseconds. Accepting a 10,000-recipient broadcast is the
     * slowest normal request (a few seconds); API Gateway cuts every call at 29 s. Above 10 s for
     * 15 minutes, callers start timing out. */
    p99LatencyMs: { threshold: 10_000, periodSeconds: 300, evaluationPeriods: 3 },
  },
} as const;

/** Age-of-oldest-message threshold of a working queue. */
export const queueAgeThresholdSeconds = (name: QueueName): number =>
  (alarmThresholds.queueAgeSeconds as Partial<Record<QueueName, number>>)[name] ?? alarmThresholds.queueAgeSeconds.default;

/** Age-of-oldest-message threshold of a dead-letter queue kept `retentionDays`. */
export const deadLetterAgeThresholdSeconds = (retentionDays: number): number =>
  Math.round(retentionDays * 86_400 * alarmThresholds.deadLetterQueues.ageFractionOfRetention);
