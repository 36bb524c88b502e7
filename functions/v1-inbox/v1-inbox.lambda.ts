import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { createContact } from './create-contact.handler';
import { createConversation } from './create-conversation.handler';
import { createOptOut } from './create-opt-out.handler';
import { deleteOptOut } from './delete-opt-out.handler';
import { getContact } from './get-contact.handler';
import { getConversation } from './get-conversation.handler';
import { listContacts } from './list-contacts.handler';
import { listConversations } from './list-conversations.handler';
import { listOptOuts } from './list-opt-outs.handler';
import { updateConversation } from './update-conversation.handler';
import { composeV1Inbox } from './v1-inbox.composition';

/** Generic v1 API. Authentication also checks the plan (403 PLAN_REQUIRED) on every request. */
export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler({
    group: 'v1-inbox',
    operations: {
      listContacts,
      createContact,
      getContact,
      listConversations,
      createConversation,
      getConversation,
      updateConversation,
      listOptOuts,
      createOptOut,
      deleteOptOut,
    },
    dependencies: composeFunction('v1-inbox', env, composeV1Inbox, overrides),
  });

export const handler = createHandler(process.env);
