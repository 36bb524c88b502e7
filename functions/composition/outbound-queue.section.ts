/** The outbound-messages queue (chunk messages). SQS only. */
import { SqsOutboundQueue } from '../../shared/adapters/sqs/sqs-outbound-queue';
import { requireSetting } from '../../shared/config/app-config';
import { memoize, type CompositionContext } from './composition-context';
import { sqsClient } from './sqs-client';

export function outboundQueueSection(context: CompositionContext): () => SqsOutboundQueue {
  const sqs = sqsClient(context);
  return memoize(() => new SqsOutboundQueue(sqs(), requireSetting(context.config.queueUrls.outboundMessages, 'OUTBOUND_QUEUE_URL')));
}
