import { createGroupHandler } from '../../shared/http/create-group-handler';
import { getServices } from '../composition';
import { createContact } from './create-contact.handler';
import { createConversation } from './create-conversation.handler';
import { getContact } from './get-contact.handler';
import { getConversation } from './get-conversation.handler';
import { listContacts } from './list-contacts.handler';
import { listConversations } from './list-conversations.handler';
import { updateConversation } from './update-conversation.handler';

/** Generic v1 API. Authentication also checks the plan (403 PLAN_REQUIRED) on every request. */
export const handler = createGroupHandler({
  group: 'v1-inbox',
  operations: { listContacts, createContact, getContact, listConversations, createConversation, getConversation, updateConversation },
  dependencies: () => {
    const services = getServices();
    return { ...services.http, inbox: services.inbox };
  },
});
