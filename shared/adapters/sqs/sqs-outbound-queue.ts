import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { encodeOutboundMessage, type OutboundMessage } from '../../broadcast/chunk-message';
import { byLane, type OutboundLane } from '../../broadcast/outbound-lanes';
import type { OutboundQueue } from '../../broadcast/ports';
import { StoreUnavailableError } from '../../ports/errors';
import { classifyStoreFaults, storeFault } from '../dynamodb/dynamodb-errors';
import { messageGroupIdOf } from './message-group';

/** SendMessageBatch takes 10 entries and 256 KiB per call on every queue. */
const MAX_ENTRIES = 10;
const MAX_BATCH_BYTES = 250 * 1024;

/** One entry to send: the encoded message and its group (the organization: a fair queue's tenant). */
interface QueuedBody {
  body: string;
  groupId: string;
}

/** The queue URL of each outbound lane this function may send to ('' or absent: not granted to it). */
export type OutboundQueueUrls = Readonly<Partial<Record<OutboundLane, string>>>;

/**
 * The outbound lanes' queues (shared/broadcast/outbound-lanes.ts): each message goes to the queue of
 * its lane, so the routing is this one place whatever queues a message (an accept's fan-out, a
 * scheduled job's firing, a worker's re-queue).
 */
export class SqsOutboundQueue implements OutboundQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrls: OutboundQueueUrls,
  ) {
    classifyStoreFaults(this.sqs);
  }

  async enqueue(messages: readonly OutboundMessage[], options: { delaySeconds?: number } = {}): Promise<void> {
    const sends = [...byLane(messages)].flatMap(([lane, laneMessages]) => {
      const queueUrl = this.urlOf(lane);
      return batchesOf(laneMessages).map((bodies) => ({ queueUrl, bodies }));
    });
    try {
      await Promise.all(sends.map(({ queueUrl, bodies }) => this.sendBatch(queueUrl, bodies, options.delaySeconds)));
    } catch (error) {
      throw storeFault(error);
    }
  }

  /** A wiring fault, not a store's: a function queues only the lanes its definition sends to. */
  private urlOf(lane: OutboundLane): string {
    const url = this.queueUrls[lane];
    if (!url) throw new TypeError(`No queue of the ${lane} lane is configured for this function`);
    return url;
  }

  /** Entries SQS refused are sent again (three more tries); a refusal that is the sender's fault is final. */
  private async sendBatch(queueUrl: string, bodies: readonly QueuedBody[], delaySeconds: number | undefined): Promise<void> {
    let entries = bodies.map(({ body, groupId }, position) => ({
      Id: String(position),
      MessageBody: body,
      MessageGroupId: groupId,
      DelaySeconds: delaySeconds,
    }));
    for (let attempt = 0; entries.length > 0; attempt += 1) {
      const result = await this.sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      const failed = result.Failed ?? [];
      if (failed.some((failure) => failure.SenderFault)) throw new Error(`SQS refused ${failed.length} outbound messages: ${failed[0]!.Code}`);
      if (failed.length > 0 && attempt >= 3) throw new StoreUnavailableError(`SQS refused ${failed.length} outbound messages after retries`);
      const failedIds = new Set(failed.map((failure) => failure.Id));
      entries = entries.filter((entry) => failedIds.has(entry.Id));
    }
  }

  /** `lane`: the queue the message was received from (the consumer's own lane). */
  async deferRedelivery(receiptHandle: string, delaySeconds: number, lane: OutboundLane = 'bulk'): Promise<void> {
    await this.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: this.urlOf(lane), ReceiptHandle: receiptHandle, VisibilityTimeout: delaySeconds }));
  }
}

/** Message bodies in SendMessageBatch calls of at most 10 entries and 250 KiB, in order. */
function batchesOf(messages: readonly OutboundMessage[]): QueuedBody[][] {
  const batches: QueuedBody[][] = [];
  let current: QueuedBody[] = [];
  let currentBytes = 0;
  for (const message of messages) {
    const body = encodeOutboundMessage(message);
    const bytes = Buffer.byteLength(body);
    if (current.length === MAX_ENTRIES || (current.length > 0 && currentBytes + bytes > MAX_BATCH_BYTES)) {
      batches.push(current);
      current = [];
      currentBytes = 0;
    }
    current.push({ body, groupId: messageGroupIdOf(message.organizationId) });
    currentBytes += bytes;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
