import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { encodeOutboundMessage, type OutboundMessage } from '../../broadcast/chunk-message';
import type { OutboundQueue } from '../../broadcast/ports';
import { classifyStoreFaults } from '../dynamodb/dynamodb-errors';

/** SendMessageBatch takes 10 entries and 256 KiB per call on every queue. */
const MAX_ENTRIES = 10;
const MAX_BATCH_BYTES = 250 * 1024;

export class SqsOutboundQueue implements OutboundQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {
    classifyStoreFaults(this.sqs);
  }

  async enqueue(messages: readonly OutboundMessage[], options: { delaySeconds?: number } = {}): Promise<void> {
    const batches: string[][] = [];
    let current: string[] = [];
    let currentBytes = 0;
    for (const message of messages) {
      const body = encodeOutboundMessage(message);
      const bytes = Buffer.byteLength(body);
      if (current.length === MAX_ENTRIES || (current.length > 0 && currentBytes + bytes > MAX_BATCH_BYTES)) {
        batches.push(current);
        current = [];
        currentBytes = 0;
      }
      current.push(body);
      currentBytes += bytes;
    }
    if (current.length > 0) batches.push(current);

    await Promise.all(
      batches.map(async (bodies) => {
        let entries = bodies.map((body, position) => ({ Id: String(position), MessageBody: body, DelaySeconds: options.delaySeconds }));
        for (let attempt = 0; entries.length > 0; attempt += 1) {
          const result = await this.sqs.send(new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: entries }));
          const failedIds = new Set((result.Failed ?? []).map((failure) => failure.Id));
          if (failedIds.size > 0 && attempt >= 3) throw new Error(`SQS refused ${failedIds.size} outbound messages`);
          entries = entries.filter((entry) => failedIds.has(entry.Id));
        }
      }),
    );
  }

  async deferRedelivery(receiptHandle: string, delaySeconds: number): Promise<void> {
    await this.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: this.queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: delaySeconds }));
  }
}
