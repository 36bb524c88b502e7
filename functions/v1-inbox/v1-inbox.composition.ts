/** v1-inbox: tenancy (read), inbox (readWrite), rate limits. DynamoDB only. */
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import { bindInboxServices, type InboxServices } from '../../shared/inbox/inbox-services';
import { lazyPorts, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients, type DynamoDbClients } from '../composition/dynamodb-clients';
import { httpSection } from '../composition/http.section';
import { inboxRepositorySection, inboxSenderNumbers } from '../composition/inbox.section';
import { tenancyReaderSection, type TenancyReader } from '../composition/tenancy.section';

export interface V1InboxDependencies extends HttpPipelineDependencies {
  inbox: InboxServices;
}

export const inboxSection = (context: CompositionContext, dynamoDb: DynamoDbClients, tenancy: () => TenancyReader) => () => {
  const repository = inboxRepositorySection(context, dynamoDb);
  return bindInboxServices({
    get inbox() {
      return repository();
    },
    get optOuts() {
      return repository();
    },
    get contactBook() {
      return repository();
    },
    senders: inboxSenderNumbers(tenancy),
    clock: context.clock,
    ids: context.ids,
  });
};

export function composeV1Inbox(context: CompositionContext): V1InboxDependencies {
  const dynamoDb = dynamoDbClients(context);
  const tenancy = tenancyReaderSection(context, dynamoDb);
  return lazyPorts<V1InboxDependencies>({ ...httpSection(context, dynamoDb, tenancy), inbox: inboxSection(context, dynamoDb, tenancy) });
}
