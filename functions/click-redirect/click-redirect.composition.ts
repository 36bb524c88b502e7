/** click-redirect: the messaging table (job and recipient, click facts, Meta click ids), the link key (token key, purpose click-link), link.clicked (tenancy read, customerEvents). DynamoDB + KMS + SQS. */
import type { FollowLinkDependencies } from '../../shared/clicks/follow-tracked-link';
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import {
  clickCorrelationsSection,
  clickDestinationsSection,
  clickLinkKeysSection,
  clickNotCountedSection,
  outcomeStoreSection,
} from '../composition/clicks.section';
import { lazyPorts, value, type CompositionContext } from '../composition/composition-context';
import { customerEventPublisherSection } from '../composition/customer-events.section';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { httpSection } from '../composition/http.section';
import { tenancyReaderSection } from '../composition/tenancy.section';
import { tokenCipherSection } from '../composition/token-cipher.section';
import { webhookSubscribersSection } from '../composition/webhook-subscribers.section';

export interface ClickRedirectDependencies extends HttpPipelineDependencies, FollowLinkDependencies {}

export function composeClickRedirect(context: CompositionContext): ClickRedirectDependencies {
  const dynamoDb = dynamoDbClients(context);
  return lazyPorts<ClickRedirectDependencies>({
    // The pipeline's part: its routes carry no credential and no rate class, so neither the
    // authenticator nor the rate limiter is ever built.
    ...httpSection(context, dynamoDb, tenancyReaderSection(context, dynamoDb)),
    keys: clickLinkKeysSection(context, dynamoDb, tokenCipherSection(context)),
    destinations: clickDestinationsSection(context, dynamoDb),
    outcomes: outcomeStoreSection(context, dynamoDb),
    correlations: clickCorrelationsSection(context, dynamoDb),
    events: customerEventPublisherSection(context, dynamoDb, webhookSubscribersSection(context, dynamoDb)),
    clickNotCounted: clickNotCountedSection(context),
    clock: value(context.clock),
  });
}
