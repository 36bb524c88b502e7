/** The outbound lanes' queues (chunk messages; shared/broadcast/outbound-lanes.ts). SQS only. */
import { SqsOutboundQueue } from '../../shared/adapters/sqs/sqs-outbound-queue';
import { outboundLaneQueues } from '../../runtime-contract/queue-definitions';
import { memoize, type CompositionContext } from './composition-context';
import { sqsClient } from './sqs-client';

/** Each lane's queue the function's environment names; a lane it has none of is refused on use (a wiring fault). */
export function outboundQueueSection(context: CompositionContext): () => SqsOutboundQueue {
  const sqs = sqsClient(context);
  const { queueUrls } = context.config;
  return memoize(() => new SqsOutboundQueue(sqs(), { bulk: queueUrls[outboundLaneQueues.bulk], single: queueUrls[outboundLaneQueues.single] }));
}
