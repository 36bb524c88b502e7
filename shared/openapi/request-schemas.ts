/**
 * The valibot schemas each route's handler validates with, by route key (`POST /api/v2/broadcast/public/send-template-broadcast`):
 * the document's request bodies and parameters are converted from these, so the reference cannot
 * describe a request the code would refuse (or the other way round). /upstream routes are described
 * from their row of the upstream route table instead (openapi-document.ts).
 */
import type * as v from 'valibot';
import { templatesQuerySchema, generateKeySchema } from '../broadcast/discovery.schema';
import { sendBulkSchema, sendSingleSchema } from '../broadcast/earlier-template-send.schema';
import { freeformMessageSchema } from '../broadcast/freeform-message.schema';
import { broadcastsQuerySchema } from '../broadcast/list-broadcasts.schema';
import { recipientsQuerySchema } from '../broadcast/list-recipients.schema';
import { templateBroadcastSchema } from '../broadcast/template-broadcast.schema';
import { endpointRegistrationSchema, redeliverySchema } from '../customer-events/webhook-endpoint.schema';
import {
  createContactSchema,
  createConversationSchema,
  createOptOutSchema,
  listContactsQuerySchema,
  listConversationsQuerySchema,
  listOptOutsQuerySchema,
  optOutPathSchema,
  updateConversationSchema,
} from '../inbox/inbox.schema';
import { removeEmployeesBodySchema } from '../organizations/remove-employees';

type AnySchema = v.GenericSchema;

export interface RequestSchemas {
  body?: AnySchema;
  query?: AnySchema;
  path?: AnySchema;
}

/** Keyed by the route's `operation` within its surface (`broadcast:sendTemplateBroadcast`). */
export const requestSchemas: Readonly<Record<string, RequestSchemas>> = {
  'broadcast:listTemplates': { query: templatesQuerySchema },
  'broadcast:sendTemplateBroadcast': { body: templateBroadcastSchema },
  'broadcast:listRecipients': { query: recipientsQuerySchema },
  'broadcast:listBroadcasts': { query: broadcastsQuerySchema },
  'broadcast:sendFreeform': { body: freeformMessageSchema },
  'broadcast:generateKey': { body: generateKeySchema },
  'broadcast:registerWebhook': { body: endpointRegistrationSchema },
  'broadcast:redeliverWebhook': { body: redeliverySchema },
  'broadcast:sendSingle': { body: sendSingleSchema },
  'broadcast:sendBulk': { body: sendBulkSchema },
  'organization:removeEmployeeBulk': { body: removeEmployeesBodySchema },
  'v1:listContacts': { query: listContactsQuerySchema },
  'v1:createContact': { body: createContactSchema },
  'v1:listConversations': { query: listConversationsQuerySchema },
  'v1:createConversation': { body: createConversationSchema },
  'v1:updateConversation': { body: updateConversationSchema },
  'v1:listOptOuts': { query: listOptOutsQuerySchema },
  'v1:createOptOut': { body: createOptOutSchema },
  'v1:deleteOptOut': { path: optOutPathSchema },
};
