/**
 * The SQS queues as plain data: each one's variable, visibility timeout, receives before its
 * dead-letter queue and that queue's settings, and which queue each outbound lane uses. The CDK app
 * and the local runtime build them from it; the functions read the variables and the lanes' queues
 * (resource-definitions.ts re-exports it).
 */
import type { OutboundLane } from '../shared/broadcast/outbound-lanes';

export type QueueName = 'outboundMessages' | 'singleMessages' | 'metaEvents' | 'customerEvents' | 'campaignExpansion';

export interface QueueDefinition {
  name: QueueName;
  envVar: string;
  /** Must exceed the consumer's timeout (AWS recommends 6x) so a slow chunk is not redelivered mid-run. */
  visibilityTimeoutSeconds: number;
  /** Receives after which SQS moves a message to the dead-letter queue. */
  maxReceiveCount: number;
  /** How long the dead-letter queue keeps messages for inspection and replay. */
  deadLetterRetentionDays: number;
  /**
   * The dead-letter queue's visibility timeout when a function consumes it (6x that consumer's
   * timeout, checked at synthesis); absent: SQS's default (30 s), nobody receives from it but operators.
   */
  deadLetterVisibilityTimeoutSeconds?: number;
}

export const queues: Record<QueueName, QueueDefinition> = {
  outboundMessages: {
    name: 'outboundMessages',
    envVar: 'OUTBOUND_QUEUE_URL',
    visibilityTimeoutSeconds: 6 * 120,
    maxReceiveCount: 5,
    deadLetterRetentionDays: 14,
    // Consumed by chunk-dead-letters (6 x its 60 s), which settles every chunk that gave up.
    deadLetterVisibilityTimeoutSeconds: 6 * 60,
  },
  /**
   * The single-message lane (docs/SCALE.md "The single-message lane"): the chunk messages of jobs of
   * one recipient (free-form messages, one-recipient broadcasts, the earlier send-single), consumed by
   * single-sender, so they never wait behind the broadcast and campaign chunks of `outboundMessages`.
   * Same message format, same five receives; its dead letters are settled by chunk-dead-letters too.
   */
  singleMessages: {
    name: 'singleMessages',
    envVar: 'SINGLE_MESSAGES_QUEUE_URL',
    visibilityTimeoutSeconds: 6 * 60,
    maxReceiveCount: 5,
    deadLetterRetentionDays: 14,
    deadLetterVisibilityTimeoutSeconds: 6 * 60,
  },
  /**
   * Meta's webhook POSTs, stored as received (raw body) by the webhook endpoint and applied by the
   * delivery-events function. Meta retries for days, but an accepted batch is ours to keep: five
   * receives, then the dead-letter queue (kept 14 days) for replay (`npm run admin -- replay-meta-events`).
   */
  metaEvents: {
    name: 'metaEvents',
    envVar: 'META_EVENTS_QUEUE_URL',
    visibilityTimeoutSeconds: 6 * 60,
    maxReceiveCount: 5,
    deadLetterRetentionDays: 14,
  },
  /**
   * One delivery of one customer event to one webhook endpoint per message (docs/CUSTOMER-WEBHOOKS.md).
   * Retries are new messages with a delay (backoff over up to 24 h), not receives; the five receives
   * only cover a dispatcher that failed before it could re-queue (a store fault, a crash).
   */
  customerEvents: {
    name: 'customerEvents',
    envVar: 'CUSTOMER_EVENTS_QUEUE_URL',
    // 6 x the dispatcher's 30 s, as every event source's queue (synthesis checks it); was 60 s.
    visibilityTimeoutSeconds: 6 * 30,
    maxReceiveCount: 5,
    deadLetterRetentionDays: 14,
  },
  /**
   * One message names a campaign to expand (docs/CAMPAIGNS.md "How a campaign runs"); the expander
   * re-queues it itself (after its time budget, with a delay while it waits). Five receives cover an
   * expander that crashed or failed on a store: the next receive resumes from the checkpoint.
   */
  campaignExpansion: {
    name: 'campaignExpansion',
    envVar: 'CAMPAIGN_EXPANSION_QUEUE_URL',
    visibilityTimeoutSeconds: 6 * 60,
    maxReceiveCount: 5,
    deadLetterRetentionDays: 14,
  },
};

/**
 * The queue of each outbound lane (shared/broadcast/outbound-lanes.ts): the queue adapter sends a
 * message to its lane's queue, and each lane's consumer receives from it.
 */
export const outboundLaneQueues = { bulk: 'outboundMessages', single: 'singleMessages' } as const satisfies Record<OutboundLane, QueueName>;

/** The variable naming a queue's dead-letter queue: `OUTBOUND_QUEUE_URL` → `OUTBOUND_DEAD_LETTER_QUEUE_URL`. */
export const deadLetterEnvVarOf = (name: QueueName): string => queues[name].envVar.replace(/_QUEUE_URL$/, '_DEAD_LETTER_QUEUE_URL');

/** A queue a consumer receives from: the queue itself, or its dead-letter queue. */
export type QueueSource = QueueName | { deadLetterQueueOf: QueueName };

/**
 * The queue a source names and whether it is that queue's dead-letter queue.
 *
 * @example
 * queueOfSource({ deadLetterQueueOf: 'outboundMessages' }); // { queue: 'outboundMessages', deadLetters: true }
 */
export const queueOfSource = (source: QueueSource): { queue: QueueName; deadLetters: boolean } =>
  typeof source === 'string' ? { queue: source, deadLetters: false } : { queue: source.deadLetterQueueOf, deadLetters: true };

/**
 * The variable naming the queue a source reads.
 *
 * @example
 * queueSourceEnvVar('outboundMessages'); // 'OUTBOUND_QUEUE_URL'
 * queueSourceEnvVar({ deadLetterQueueOf: 'outboundMessages' }); // 'OUTBOUND_DEAD_LETTER_QUEUE_URL'
 */
export function queueSourceEnvVar(source: QueueSource): string {
  const { queue, deadLetters } = queueOfSource(source);
  return deadLetters ? deadLetterEnvVarOf(queue) : queues[queue].envVar;
}
