/**
 * The valibot schemas each route's handler validates with, by route key (`POST /api/v2/broadcast/public/send-template-broadcast`):
 * the document's request bodies and parameters are converted from these, so the reference cannot
 * describe a request the code would refuse (or the other way round). /upstream routes are described
 * from their row of the upstream route table instead (openapi-document.ts).
 */
import type * as v from 'valibot';
import { templatesQuerySchema, generateKeySchema } from '../broadcast/discovery.schema';
import { sendBulkSchema, sendSingleSchema } from '../broadcast/earlier-template-send.schema';
import { followUpSchema } from '../broadcast/follow-up.schema';
import { campaignRecipientsQuerySchema } from '../campaigns/campaign-recipients';
import { freeformMessageSchema } from '../broadcast/freeform-message.schema';
import { broadcastsQuerySchema } from '../broadcast/list-broadcasts.schema';
import { recipientsQuerySchema } from '../broadcast/list-recipients.schema';
import { templateBroadcastSchema } from '../broadcast/template-broadcast.schema';
import { broadcastQuerySchema } from '../broadcast/dry-run-request';
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
import { newApiKeySchema } from '../tenancy/organization-api-keys.schema';
import { campaignRequestSchema } from '../campaigns/campaign-request.schema';
import { campaignsQuerySchema } from '../campaigns/list-campaigns.schema';
import { auditLogQuerySchema } from '../audit/list-audit-log.schema';
import { createAudienceSchema, listAudiencesQuerySchema, listMembersQuerySchema } from '../audiences/audience.schema';
import { removeMembersSchema, upsertMembersSchema } from '../audiences/member-rows.schema';
import { invitationSchema, roleChangeSchema } from '../people/people.schema';
import { contactPolicyRequestSchema } from '../send-rules/contact-policy.schema';

type AnySchema = v.GenericSchema;

export interface RequestSchemas {
  body?: AnySchema;
  query?: AnySchema;
  path?: AnySchema;
}

/** Keyed by the route's `operation` within its surface (`broadcast:sendTemplateBroadcast`). */
export const requestSchemas: Readonly<Record<string, RequestSchemas>> = {
  'broadcast:listTemplates': { query: templatesQuerySchema },
  'broadcast:sendTemplateBroadcast': { body: templateBroadcastSchema, query: broadcastQuerySchema },
  'broadcast:listRecipients': { query: recipientsQuerySchema },
  'broadcast:listCampaignRecipients': { query: campaignRecipientsQuerySchema },
  'broadcast:campaignFollowUp': { body: followUpSchema, query: broadcastQuerySchema },
  'broadcast:launchCampaign': { query: broadcastQuerySchema },
  'broadcast:listBroadcasts': { query: broadcastsQuerySchema },
  'broadcast:followUp': { body: followUpSchema, query: broadcastQuerySchema },
  'broadcast:sendFreeform': { body: freeformMessageSchema },
  'broadcast:generateKey': { body: generateKeySchema },
  'broadcast:registerWebhook': { body: endpointRegistrationSchema },
  'broadcast:redeliverWebhook': { body: redeliverySchema },
  'broadcast:sendSingle': { body: sendSingleSchema },
  'broadcast:sendBulk': { body: sendBulkSchema },
  'organization:removeEmployeeBulk': { body: removeEmployeesBodySchema },
  'broadcast:createCampaign': { body: campaignRequestSchema },
  'broadcast:listCampaigns': { query: campaignsQuerySchema },
  'v1:listContacts': { query: listContactsQuerySchema },
  'v1:createContact': { body: createContactSchema },
  'v1:listConversations': { query: listConversationsQuerySchema },
  'v1:createConversation': { body: createConversationSchema },
  'v1:updateConversation': { body: updateConversationSchema },
  'v1:listOptOuts': { query: listOptOutsQuerySchema },
  'v1:createOptOut': { body: createOptOutSchema },
  'v1:deleteOptOut': { path: optOutPathSchema },
  'broadcast:createAudience': { body: createAudienceSchema },
  'broadcast:listAudiences': { query: listAudiencesQuerySchema },
  // Rows are judged one by one (an invalid row is listed in `invalid`, not a 400): the document shows what a valid row is.
  'broadcast:upsertMembers': { body: upsertMembersSchema },
  'broadcast:removeMembers': { body: removeMembersSchema },
  'broadcast:listMembers': { query: listMembersQuerySchema },
  'broadcast:invitePerson': { body: invitationSchema },
  'broadcast:setPersonRole': { body: roleChangeSchema },
  'broadcast:listAuditLog': { query: auditLogQuerySchema },
  'broadcast:createApiKey': { body: newApiKeySchema },
  'broadcast:setContactPolicy': { body: contactPolicyRequestSchema },
};

/** Request examples shown by the reference (valid for the demo tenant's shapes; numbers are placeholders). */
export const requestExamples: Readonly<Record<string, unknown>> = {
  'broadcast:sendTemplateBroadcast': {
    broadcastName: 'Spring sale',
    fromPhoneNumber: '15550001111',
    templateName: 'order_update',
    templateLanguage: 'en_US',
    templateType: 'UTILITY',
    globalTemplateParams: ['Ada', 'A-17'],
    data: [
      { countryCode: '49', toPhoneNumber: '1701234567' },
      { countryCode: '91', toPhoneNumber: '9876543210', templateParams: ['Ravi', 'A-18'] },
    ],
  },
  'broadcast:sendFreeform': { fromPhoneNumber: '15550001111', toPhoneNumber: '491701234567', type: 'text', text: 'Your order has shipped' },
  'broadcast:generateKey': { phoneNumber: '15550001111' },
  'broadcast:createApiKey': { phoneNumber: '15550001111' },
  'broadcast:setContactPolicy': { marketingPerPerson: 2, perDays: 7, categories: ['MARKETING'] },
  'broadcast:registerWebhook': { url: 'https://example.com/hooks/whatsapp', events: ['message.status', 'job.completed'] },
  'broadcast:sendSingle': {
    templateName: 'order_update',
    templateLanguage: 'en_US',
    templateType: 'UTILITY',
    countryCode: '49',
    toPhoneNumber: '1701234567',
    templateParams: ['Ada', 'A-17'],
  },
  'organization:removeEmployeeBulk': { emails: ['ada@example.com', 'grace@example.com'] },
  'broadcast:createCampaign': {
    name: 'Spring sale',
    fromPhoneNumber: '15550001111',
    templateName: 'order_update',
    templateLanguage: 'en_US',
    templateType: 'UTILITY',
    audience: {
      audienceIds: ['aud_01JD3X8', 'contacts'],
      filter: { tags: { any: ['vip'] }, attributes: { city: { in: ['Pune', 'Mumbai'] } } },
      excludeAudienceIds: ['aud_01JD3X9'],
    },
    templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'A-17'],
    holdout: { percent: 5 },
    attributionWindowHours: 72,
  },
  'v1:createContact': { phoneNumber: '491701234567', name: 'Ada', tags: ['vip'] },
  'v1:createOptOut': { phoneNumber: '491701234567' },
  'v1:updateConversation': { status: 'closed' },
  'broadcast:createAudience': { name: 'VIP customers' },
  'broadcast:invitePerson': { email: 'ana@example.com', role: 'campaign-manager' },
  'broadcast:setPersonRole': { role: 'admin' },
  'broadcast:upsertMembers': {
    members: [
      { countryCode: '91', toPhoneNumber: '9876543210', attributes: { first_name: 'Ravi', city: 'Pune', timeZone: 'Asia/Kolkata' }, tags: ['vip'] },
      { userId: 'IN.3405190255563528', attributes: { first_name: 'Asha' } },
    ],
  },
  'broadcast:removeMembers': { members: [{ countryCode: '91', toPhoneNumber: '9876543210' }, { userId: 'IN.3405190255563528' }] },
};
