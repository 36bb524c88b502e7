/** The campaign expander's failed records brought back sooner (ExpansionRedelivery). SQS only. */
import { SqsRedelivery } from '../../shared/adapters/sqs/sqs-redelivery';
import { requireSetting } from '../../shared/config/app-config';
import { memoize, type CompositionContext } from './composition-context';
import { sqsClient } from './sqs-client';

export function expansionRedeliverySection(context: CompositionContext): () => SqsRedelivery {
  const sqs = sqsClient(context);
  return memoize(() => new SqsRedelivery(sqs(), requireSetting(context.config.queueUrls.campaignExpansion, 'CAMPAIGN_EXPANSION_QUEUE_URL')));
}
