/**
 * Brings a failed queue message back sooner than the queue's full visibility timeout (a store
 * timeout should not park a webhook batch for six minutes). SQS only.
 */
import { ChangeMessageVisibilityCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { classifyStoreFaults } from '../dynamodb/dynamodb-errors';

export class SqsRedelivery {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {
    classifyStoreFaults(this.sqs);
  }

  async defer(receiptHandle: string, delaySeconds: number): Promise<void> {
    await this.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: this.queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: delaySeconds }));
  }
}
