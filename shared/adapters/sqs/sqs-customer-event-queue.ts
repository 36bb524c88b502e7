/** The customerEvents queue and its dead-letter queue: one delivery per message. */
import { SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { encodeDelivery, type CustomerEventDelivery } from '../../customer-events/delivery-message';
import type { CustomerEventQueue } from '../../customer-events/delivery-ports';
import { MAX_SQS_DELAY_SECONDS } from '../../customer-events/retry-schedule';
import { StoreUnavailableError } from '../../ports/errors';
import { classifyStoreFaults, storeFault } from '../dynamodb/dynamodb-errors';
import { messageGroupIdOf } from './message-group';

const MAX_ENTRIES = 10;

export class SqsCustomerEventQueue implements CustomerEventQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
    /** Absent for producers: only the dispatcher parks deliveries. */
    private readonly deadLetterQueueUrl?: string,
  ) {
    classifyStoreFaults(this.sqs);
  }

  async enqueue(deliveries: readonly CustomerEventDelivery[], options: { delaySeconds?: number } = {}): Promise<void> {
    const delay = options.delaySeconds === undefined ? undefined : Math.max(0, Math.min(MAX_SQS_DELAY_SECONDS, Math.floor(options.delaySeconds)));
    const batches: CustomerEventDelivery[][] = [];
    for (let start = 0; start < deliveries.length; start += MAX_ENTRIES) batches.push(deliveries.slice(start, start + MAX_ENTRIES));
    try {
      await Promise.all(batches.map((batch) => this.sendBatch(batch, delay)));
    } catch (error) {
      throw storeFault(error);
    }
  }

  async deadLetter(delivery: CustomerEventDelivery): Promise<void> {
    if (!this.deadLetterQueueUrl) throw new Error('the customer events dead-letter queue is not configured for this queue');
    try {
      await this.sqs.send(
        new SendMessageCommand({
          QueueUrl: this.deadLetterQueueUrl,
          MessageBody: encodeDelivery(delivery),
          MessageGroupId: messageGroupIdOf(delivery.organizationId),
        }),
      );
    } catch (error) {
      throw storeFault(error);
    }
  }

  /** Entries SQS refused are offered again (three more tries); a refusal that is the sender's fault is final. */
  private async sendBatch(batch: readonly CustomerEventDelivery[], delaySeconds: number | undefined): Promise<void> {
    // Retries and deferrals are the same delivery sent again: its organization stays its group.
    let entries = batch.map((delivery, position) => ({
      Id: String(position),
      MessageBody: encodeDelivery(delivery),
      MessageGroupId: messageGroupIdOf(delivery.organizationId),
      DelaySeconds: delaySeconds,
    }));
    for (let attempt = 0; entries.length > 0; attempt += 1) {
      const result = await this.sqs.send(new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: entries }));
      const failed = result.Failed ?? [];
      if (failed.some((failure) => failure.SenderFault)) throw new Error(`SQS refused ${failed.length} customer event deliveries: ${failed[0]!.Code}`);
      if (failed.length > 0 && attempt >= 3) throw new StoreUnavailableError(`SQS refused ${failed.length} customer event deliveries after retries`);
      const failedIds = new Set(failed.map((failure) => failure.Id));
      entries = entries.filter((entry) => failedIds.has(entry.Id));
    }
  }
}
