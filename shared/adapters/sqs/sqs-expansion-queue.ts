/** The campaign-expansion queue: one message names a campaign to expand (its checkpoint says where). */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { encodeExpansionMessage } from '../../campaigns/expansion-message';
import type { ExpansionMessage, ExpansionQueue } from '../../campaigns/ports';
import { MAX_EXPANSION_DELAY_SECONDS } from '../../campaigns/expansion-timing';
import { classifyStoreFaults, storeFault } from '../dynamodb/dynamodb-errors';
import { messageGroupIdOf } from './message-group';

export class SqsExpansionQueue implements ExpansionQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
    /** The longest delay of a message (CAMPAIGN_EXPANSION_MAX_DELAY_SECONDS: the launch's first wait too, not only the expander's). */
    private readonly maxDelaySeconds: number = MAX_EXPANSION_DELAY_SECONDS,
  ) {
    classifyStoreFaults(this.sqs);
  }

  async enqueueExpansion(message: ExpansionMessage, delaySeconds = 0): Promise<void> {
    const delay = Math.max(0, Math.min(this.maxDelaySeconds, MAX_EXPANSION_DELAY_SECONDS, Math.floor(delaySeconds)));
    try {
      await this.sqs.send(
        new SendMessageCommand({
          QueueUrl: this.queueUrl,
          MessageBody: encodeExpansionMessage(message),
          // The re-queued expansion is built from the same message: the campaign's organization stays its group.
          MessageGroupId: messageGroupIdOf(message.organizationId),
          ...(delay > 0 && { DelaySeconds: delay }),
        }),
      );
    } catch (error) {
      throw storeFault(error);
    }
  }
}
