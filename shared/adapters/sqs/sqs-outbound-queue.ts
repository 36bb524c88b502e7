import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { encodeOutboundMessage, type OutboundMessage } from '../../broadcast/chunk-message';
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

export class SqsOutboundQueue implements OutboundQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {
    classifyStoreFaults(this.sqs);
  }

  async enqueue(messages: readonly OutboundMessage[], options: { delaySeconds?: number } = {}): Promise<void> {
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

    try {
      await Promise.all(batches.map((batch) => this.sendBatch(batch, options.delaySeconds)));
    } catch (error) {
      throw storeFault(error);
    }
  }

  /** Entries SQS refused are sent again (three more tries); a refusal that is the sender's fault is final. */
  private async sendBatch(batch: readonly QueuedBody[], delaySeconds: number | undefined): Promise<void> {
    let entries = batch.map(({ body, groupId }, position) => ({ Id: String(position), MessageBody: body, MessageGroupId: groupId, DelaySeconds: delaySeconds }));
    for (let attempt = 0; entries.length > 0; attempt += 1) {
      const result = await this.sqs.send(new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: entries }));
      const failed = result.Failed ?? [];
      if (failed.some((failure) => failure.SenderFault)) throw new Error(`SQS refused ${failed.length} outbound messages: ${failed[0]!.Code}`);
      if (failed.length > 0 && attempt >= 3) throw new StoreUnavailableError(`SQS refused ${failed.length} outbound messages after retries`);
      const failedIds = new Set(failed.map((failure) => failure.Id));
      entries = entries.filter((entry) => failedIds.has(entry.Id));
    }
  }

  async deferRedelivery(receiptHandle: string, delaySeconds: number): Promise<void> {
    await this.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: this.queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: delaySeconds }));
  }
}
