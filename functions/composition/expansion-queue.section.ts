/** The campaign-expansion queue (ExpansionQueue): the launch queues a campaign's first message, the expander re-queues itself. SQS only. */
import { SqsExpansionQueue } from '../../shared/adapters/sqs/sqs-expansion-queue';
import { requireSetting } from '../../shared/config/app-config';
import { memoize, type CompositionContext } from './composition-context';
import { sqsClient } from './sqs-client';

export function expansionQueueSection(context: CompositionContext): () => SqsExpansionQueue {
  const sqs = sqsClient(context);
  return memoize(
    () =>
      new SqsExpansionQueue(
        sqs(),
        requireSetting(context.config.queueUrls.campaignExpansion, 'CAMPAIGN_EXPANSION_QUEUE_URL'),
        context.config.campaigns.expansionMaxDelaySeconds,
      ),
  );
}
