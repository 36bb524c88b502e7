/** Ports over the inbox table (contacts, conversations) and what other modules read or write through it. DynamoDB only. */
import { DynamoDbInboxRepository } from '../../shared/adapters/dynamodb/dynamodb-inbox-repository';
import { requireSetting } from '../../shared/config/app-config';
import type { SenderNumbers } from '../../shared/inbox/ports';
import type { SenderNumberOfId } from '../../shared/module-bridges/inbox-inbound-sink';
import { memoize, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';
import type { TenancyReader } from './tenancy.section';

export const inboxRepositorySection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbInboxRepository(dynamoDb.document, requireSetting(context.config.tableNames.inbox, 'INBOX_TABLE')));

/** The organization's sender numbers as the inbox sees them (tenancy's phone numbers). */
export const inboxSenderNumbers = (tenancy: () => Pick<TenancyReader, 'repository'>): SenderNumbers & SenderNumberOfId => ({
  listSenderPhoneNumbers: async (organizationId) => (await tenancy().repository.listPhoneNumbers(organizationId)).map((phone) => phone.digits),
  // One keyed read of the number, not the organization's whole list (the webhook path passes the owner lookup's digits and skips it); another organization's id answers nothing.
  senderPhoneNumberOf: async (organizationId, phoneNumberId) => {
    const phone = await tenancy().repository.findPhoneNumberById(phoneNumberId);
    return phone?.organizationId === organizationId ? phone.digits : undefined;
  },
});
