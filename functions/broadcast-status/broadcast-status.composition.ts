/** broadcast-status: tenancy (read), messaging (read), rate limits. DynamoDB only. */
import type { BroadcastRepository } from '../../shared/broadcast/ports';
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import { lazyPorts, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { httpSection } from '../composition/http.section';
import { broadcastRepositorySection } from '../composition/messaging.section';
import { tenancyReaderSection } from '../composition/tenancy.section';

export interface BroadcastStatusDependencies extends HttpPipelineDependencies {
  broadcasts: BroadcastRepository;
}

export function composeBroadcastStatus(context: CompositionContext): BroadcastStatusDependencies {
  const dynamoDb = dynamoDbClients(context);
  return lazyPorts<BroadcastStatusDependencies>({
    ...httpSection(context, dynamoDb, tenancyReaderSection(context, dynamoDb)),
    broadcasts: broadcastRepositorySection(context, dynamoDb),
  });
}
