/** broadcast-audiences: tenancy (read: keys), inbox (audiences, members, contacts, opt-outs, pairs), idempotency, rate limits. DynamoDB only. */
import type { AudiencePorts } from '../../shared/audiences/audience-use-cases';
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import { audienceMemberSourceSection, audienceStoreSection, optOutKeysSection } from '../composition/audiences.section';
import { lazyPorts, value, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { auditSection } from '../composition/audit.section';
import { httpSection } from '../composition/http.section';
import { idempotencySection } from '../composition/idempotency.section';
import { inboxRepositorySection } from '../composition/inbox.section';
import { tenancyReaderSection } from '../composition/tenancy.section';

export type BroadcastAudiencesDependencies = AudiencePorts & HttpPipelineDependencies;

export function composeBroadcastAudiences(context: CompositionContext): BroadcastAudiencesDependencies {
  const dynamoDb = dynamoDbClients(context);
  const audiences = audienceStoreSection(context, dynamoDb);
  return lazyPorts<BroadcastAudiencesDependencies>({
    ...httpSection(context, dynamoDb, tenancyReaderSection(context, dynamoDb)),
    ...auditSection(context, dynamoDb),
    audiences,
    members: audienceMemberSourceSection(context, dynamoDb, audiences),
    optOutKeys: optOutKeysSection(context, dynamoDb),
    contactBook: inboxRepositorySection(context, dynamoDb),
    idempotency: idempotencySection(context, dynamoDb),
    ids: value(context.ids),
  });
}
