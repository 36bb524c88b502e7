/** The metaEvents queue (one message per accepted webhook POST) and the replay of its dead-letter queue. */
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { decodeMetaEventMessage, REPLAYED_ATTRIBUTE } from '../../meta-app/meta-event-message';
import { metaEventTenantOf, UNATTRIBUTED_META_EVENTS } from '../../meta-app/meta-event-tenant';
import type { MetaEventQueue, MetaEventsDeadLetters } from '../../meta-app/ports';
import { StoreUnavailableError } from '../../ports/errors';
import { classifyStoreFaults } from '../dynamodb/dynamodb-errors';
import { messageGroupIdOf } from './message-group';

export class SqsMetaEventQueue implements MetaEventQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {
    classifyStoreFaults(this.sqs);
  }

  async send(messageBody: string, tenant: string): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: messageBody, MessageGroupId: messageGroupIdOf(tenant) }));
  }
}

/** Receive, send again, then delete: a crash in between leaves a duplicate (the processor is idempotent), never a loss. */
export class SqsDeadLetterReplay implements MetaEventsDeadLetters {
  constructor(
    private readonly sqs: SQSClient,
    private readonly deadLetterQueueUrl: string,
    private readonly queueUrl: string,
  ) {
    classifyStoreFaults(this.sqs);
  }

  async moveBack(limit: number): Promise<number> {
    let moved = 0;
    while (moved < limit) {
      const received = await this.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: this.deadLetterQueueUrl,
          MaxNumberOfMessages: Math.min(10, limit - moved),
          // Long enough to send and delete; a message left behind by a failure shows up again after it.
          VisibilityTimeout: 60,
          WaitTimeSeconds: 0,
          MessageSystemAttributeNames: ['MessageGroupId'],
        }),
      );
      const messages = (received.Messages ?? []).filter((message) => message.Body !== undefined && message.ReceiptHandle !== undefined);
      if (messages.length === 0) break;
      const sent = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          // Marked as a replay: the processor treats it like a redelivery (it may follow a crashed attempt).
          Entries: messages.map((message, index) => ({
            Id: String(index),
            MessageBody: message.Body!,
            MessageGroupId: replayGroupOf(message.Attributes?.MessageGroupId, message.Body!),
            MessageAttributes: { [REPLAYED_ATTRIBUTE]: { DataType: 'String', StringValue: 'true' } },
          })),
        }),
      );
      const resent = new Set((sent.Successful ?? []).map((entry) => entry.Id));
      const toDelete = messages.flatMap((message, index) => (resent.has(String(index)) ? [{ Id: String(index), ReceiptHandle: message.ReceiptHandle! }] : []));
      if (toDelete.length > 0) await this.sqs.send(new DeleteMessageBatchCommand({ QueueUrl: this.deadLetterQueueUrl, Entries: toDelete }));
      moved += toDelete.length;
      if ((sent.Failed ?? []).length > 0)
        throw new StoreUnavailableError(`metaEvents queue refused ${sent.Failed!.length} replayed messages after ${moved} moved`);
    }
    return moved;
  }
}

/** A replayed message keeps its group; one dead-lettered before groups existed gets the group its POST would have today. */
function replayGroupOf(storedGroupId: string | undefined, body: string): string {
  if (storedGroupId) return storedGroupId;
  const stored = decodeMetaEventMessage(body);
  return messageGroupIdOf(stored ? metaEventTenantOf(stored.body) : UNATTRIBUTED_META_EVENTS);
}
