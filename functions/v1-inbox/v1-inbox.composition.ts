/** v1-inbox: tenancy (read), inbox (readWrite), rate limits. DynamoDB only. */
import { DynamoDbInboxRepository } from '../../shared/adapters/dynamodb/dynamodb-inbox-repository';
import { requireSetting } from '../../shared/config/app-config';
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import { bindInboxServices, type InboxServices } from '../../shared/inbox/inbox-services';
import { lazyPorts, memoize, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients, type DynamoDbClients } from '../composition/dynamodb-clients';
import { httpSection } from '../composition/http.section';
import { tenancyReaderSection, type TenancyReader } from '../composition/tenancy.section';

export interface V1InboxDependencies extends HttpPipelineDependencies {
  inbox: InboxServices;
}

export const inboxSection = (context: CompositionContext, dynamoDb: DynamoDbClients, tenancy: () => TenancyReader) => () => {
  const repository = memoize(() => new DynamoDbInboxRepository(dynamoDb.document, requireSetting(context.config.tableNames.inbox, 'INBOX_TABLE')));
  return bindInboxServices({
    get inbox() {
      return repository();
    },
    senders: {
      listSenderPhoneNumbers: async (organizationId) => (await tenancy().repository.listPhoneNumbers(organizationId)).map((phone) => phone.digits),
    },
    clock: context.clock,
    ids: context.ids,
  });
};

export function composeV1Inbox(context: CompositionContext): V1InboxDependencies {
  const dynamoDb = dynamoDbClients(context);
  const tenancy = tenancyReaderSection(context, dynamoDb);
  return lazyPorts<V1InboxDependencies>({ ...httpSection(context, dynamoDb, tenancy), inbox: inboxSection(context, dynamoDb, tenancy) });
}
