/**
 * The /upstream wrapper's route table: one row per route, pure data.
 *
 * `runtime-contract/upstream-manifest-routes.ts` turns every row into a manifest route (so API Gateway, the local
 * gateway and the group's dispatcher all come from here), the Lambda builds its operations from
 * it (a generic pass-through for every row, a dedicated handler where `special` is set), and
 * docs/UPSTREAM-WRAPPER.md documents it (a unit test keeps the document in step).
 *
 * Paths are below `/upstream`; upstream paths are Graph API paths after `/{version}` (v25.0),
 * with `{param}` taken from our path. Nothing here imports code: no CDK, no SDK.
 */
import type { HttpMethod } from './http-types';

export type UpstreamArea =
  | 'Phone numbers'
  | 'Messaging'
  | 'Bulk messaging'
  | 'Templates'
  | 'Media'
  | 'Profile and settings'
  | 'Analytics'
  | 'Flows'
  | 'QR codes'
  | 'Automation'
  | 'Number administration'
  | 'Webhooks'
  | 'Block list';

/**
 * Which identifier of our path resolves the business account (and so the stored credentials)
 * of the call, checked against the caller's organization before any upstream call:
 * - `waba`: `{wabaId}` must be a business account connected to the organization;
 * - `phone-number`: `{phoneNumberId}` must be a number the organization added (global claim,
 *   organization compared); its business account makes the call;
 * - `organization`: every business account of the organization (the phone-number list).
 */
export type UpstreamTarget = 'organization' | 'waba' | 'phone-number';

/**
 * An id that is not a business account or phone number but must belong to the resolved business
 * account (or number): checked against its own list read upstream (cached briefly), 404 otherwise.
 */
export interface OwnedIdCheck {
  /** Templates and flows are checked against the account's lists, QR codes against the number's. */
  kind: 'template' | 'flow' | 'qr-code';
  /** A path parameter, a query parameter holding a list (`[1,2]` or `1,2`), or a body field. */
  source: 'path' | 'query' | 'body';
  name: string;
  required: boolean;
}

export interface UpstreamRouteSpec {
  /** Operation name in the `upstream-wrapper` group (and API Gateway's operationName). */
  operation: string;
  area: UpstreamArea;
  summary: string;
  method: HttpMethod;
  /** Below `/upstream`, with `{param}` placeholders. */
  path: string;
  target: UpstreamTarget;
  /** The Graph call (for special routes: the main one, for the documentation). */
  upstream: { method: HttpMethod; path: string };
  /** `none`: the route reads no body (a POST without Content-Type is fine). */
  body: 'none' | 'json' | 'multipart';
  ownedIds?: readonly OwnedIdCheck[];
  /**
   * Ids inside the JSON body checked against the organization before the call (shared/upstream/body-ids.ts):
   * `message` a message (media ids, replied/reacted message ids, flow id, template name), `status` a
   * read receipt's `message_id`, `template-definition` FLOW buttons' `flow_id`, `bulk` the bulk send's template.
   */
  bodyIds?: 'message' | 'status' | 'template-definition' | 'bulk';
  /** Adds `messaging_product: "whatsapp"` to the JSON body. */
  messagingProduct?: boolean;
  /** Query parameters passed through (GET routes always pass `fields`); any other is a 400. */
  query?: readonly string[];
  requiredQuery?: readonly string[];
  /** Query parameters the wrapper sets; `{param}` is replaced from our path. */
  fixedQuery?: Readonly<Record<string, string>>;
  /** Body fields the wrapper sets (they win over the caller's); `{param}` is replaced from our path. */
  fixedBody?: Readonly<Record<string, unknown>>;
  requiredBody?: readonly string[];
  /** Body fields restricted to a set of values. */
  bodyEnums?: Readonly<Record<string, readonly string[]>>;
  /**
   * Analytics are fields of the WABA node: the query parameters become
   * `fields=<field>.start(..).end(..).granularity(..)...` (lists as `["a","b"]`).
   */
  fieldExpansion?: { field: string; required: readonly string[]; optional: readonly string[] };
  /** Answers binary content (the media download), not JSON. */
  binaryResponse?: boolean;
  /** A message send: an answer that never came leaves the outcome unknown; it is logged for reconciliation. */
  send?: boolean;
  /** Served by a dedicated handler (functions/upstream-wrapper/*.handler.ts), not the pass-through. */
  special?: boolean;
  notes?: string;
}

const PAGING = ['limit', 'after', 'before'] as const;
const PN = '/phone-numbers/{phoneNumberId}';
const WABA = '/wabas/{wabaId}';

export const upstreamRoutes: readonly UpstreamRouteSpec[] = [
  // Phone numbers
  {
    operation: 'listPhoneNumbers',
    area: 'Phone numbers',
    summary: 'Business accounts of the organization and their phone numbers',
    method: 'GET',
    path: '/phone-numbers',
    target: 'organization',
    upstream: { method: 'GET', path: '/{wabaId}/phone_numbers' },
    body: 'none',
    special: true,
    notes:
      'One upstream call per connected account, in parallel; an account needing authorization shows `status: false` with an error while the others resolve',
  },
  {
    operation: 'getPhoneNumber',
    area: 'Phone numbers',
    summary: 'One phone number (quality rating, name status, throughput, ...)',
    method: 'GET',
    path: PN,
    target: 'phone-number',
    upstream: { method: 'GET', path: '/{phoneNumberId}' },
    body: 'none',
  },

  // Messaging
  {
    operation: 'sendMessage',
    area: 'Messaging',
    summary: 'Send any message: text, template, image/audio/video/document/sticker, contacts, reaction, interactive, location',
    method: 'POST',
    path: `${PN}/messages`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/messages' },
    body: 'json',
    messagingProduct: true,
    requiredBody: ['to'],
    send: true,
    bodyIds: 'message',
  },
  {
    operation: 'sendMarketingMessage',
    area: 'Messaging',
    summary: 'Send a marketing template through the Marketing Messages API (MM Lite)',
    method: 'POST',
    path: `${PN}/marketing-messages`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/marketing_messages' },
    body: 'json',
    messagingProduct: true,
    requiredBody: ['to', 'template'],
    send: true,
    bodyIds: 'message',
  },
  {
    operation: 'markMessageRead',
    area: 'Messaging',
    summary: 'Mark a received message as read (`{ message_id }`)',
    method: 'POST',
    path: `${PN}/messages/read`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/messages' },
    body: 'json',
    messagingProduct: true,
    requiredBody: ['message_id'],
    fixedBody: { status: 'read' },
    bodyIds: 'status',
  },
  {
    operation: 'showTypingIndicator',
    area: 'Messaging',
    summary: 'Mark as read and show a typing indicator (`{ message_id }`)',
    method: 'POST',
    path: `${PN}/messages/typing`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/messages' },
    body: 'json',
    messagingProduct: true,
    requiredBody: ['message_id'],
    fixedBody: { status: 'read', typing_indicator: { type: 'text' } },
    bodyIds: 'status',
  },

  // Bulk messaging
  {
    operation: 'sendBulkTemplate',
    area: 'Bulk messaging',
    summary: 'One template to up to 100 recipients with per-recipient variables; answers a delivery summary',
    method: 'POST',
    path: `${PN}/messages/bulk`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/messages' },
    body: 'json',
    messagingProduct: true,
    send: true,
    special: true,
    notes:
      "Paced by the business account's shared send pacer (with broadcasts), retries rate limits and transient errors with backoff, bounded to fit API Gateway's 29 s",
    bodyIds: 'bulk',
  },

  // Templates
  {
    operation: 'listTemplates',
    area: 'Templates',
    summary: 'List templates (filters name, status, category, language, ...; paging)',
    method: 'GET',
    path: `${WABA}/templates`,
    target: 'waba',
    upstream: { method: 'GET', path: '/{wabaId}/message_templates' },
    body: 'none',
    query: ['name', 'status', 'category', 'language', 'name_or_content', 'quality_score', 'content', 'summary', ...PAGING],
  },
  {
    operation: 'createTemplate',
    area: 'Templates',
    summary: 'Create a template (it starts PENDING until reviewed)',
    method: 'POST',
    path: `${WABA}/templates`,
    target: 'waba',
    upstream: { method: 'POST', path: '/{wabaId}/message_templates' },
    body: 'json',
    requiredBody: ['name', 'language', 'category'],
    bodyIds: 'template-definition',
  },
  {
    operation: 'deleteTemplate',
    area: 'Templates',
    summary: 'Delete a template by name (all languages) or by name and `hsm_id` (one)',
    method: 'DELETE',
    path: `${WABA}/templates`,
    target: 'waba',
    upstream: { method: 'DELETE', path: '/{wabaId}/message_templates' },
    body: 'none',
    query: ['name', 'hsm_id'],
    requiredQuery: ['name'],
    notes: 'Scoped upstream by the WABA path: a name or hsm_id of another account deletes nothing',
  },
  {
    operation: 'migrateTemplates',
    area: 'Templates',
    summary: 'Copy eligible templates from another business account of the same business (`sourceWabaId`, `pageNumber`)',
    method: 'POST',
    path: `${WABA}/templates/migrate`,
    target: 'waba',
    upstream: { method: 'POST', path: '/{wabaId}/migrate_message_templates' },
    body: 'json',
    special: true,
    notes:
      'The source must be connected to the same organization with the same businessId (400 otherwise); answers `migrated_templates` [{id, name}] and `failed_templates` [{id, name, reason}]',
  },
  {
    operation: 'getTemplate',
    area: 'Templates',
    summary: 'One template',
    method: 'GET',
    path: `${WABA}/templates/{templateId}`,
    target: 'waba',
    upstream: { method: 'GET', path: '/{templateId}' },
    body: 'none',
    ownedIds: [{ kind: 'template', source: 'path', name: 'templateId', required: true }],
  },
  {
    operation: 'editTemplate',
    area: 'Templates',
    summary: 'Edit a template (components, category, ...)',
    method: 'POST',
    path: `${WABA}/templates/{templateId}`,
    target: 'waba',
    upstream: { method: 'POST', path: '/{templateId}' },
    body: 'json',
    ownedIds: [{ kind: 'template', source: 'path', name: 'templateId', required: true }],
    bodyIds: 'template-definition',
  },
  {
    operation: 'compareTemplates',
    area: 'Templates',
    summary: 'Compare a template with others (`template_ids`, `start`, `end`)',
    method: 'GET',
    path: `${WABA}/templates/{templateId}/compare`,
    target: 'waba',
    upstream: { method: 'GET', path: '/{templateId}/compare' },
    body: 'none',
    query: ['template_ids', 'start', 'end'],
    requiredQuery: ['template_ids', 'start', 'end'],
    ownedIds: [
      { kind: 'template', source: 'path', name: 'templateId', required: true },
      { kind: 'template', source: 'query', name: 'template_ids', required: true },
    ],
  },
  {
    operation: 'browseTemplateLibrary',
    area: 'Templates',
    summary: "Browse Meta's template library (filters search, topic, usecase, industry, language)",
    method: 'GET',
    path: `${WABA}/template-library`,
    target: 'waba',
    upstream: { method: 'GET', path: '/message_template_library' },
    body: 'none',
    query: ['search', 'topic', 'usecase', 'industry', 'language', ...PAGING],
    notes: 'The library is global; the account only supplies the credentials',
  },
  {
    operation: 'createTemplateFromLibrary',
    area: 'Templates',
    summary: 'Create a template from the library (`library_template_name`, `library_template_button_inputs`)',
    method: 'POST',
    path: `${WABA}/template-library`,
    target: 'waba',
    upstream: { method: 'POST', path: '/{wabaId}/message_templates' },
    body: 'json',
    requiredBody: ['name', 'language', 'category', 'library_template_name'],
  },

  // Media
  {
    operation: 'uploadMedia',
    area: 'Media',
    summary: 'Upload media (multipart/form-data: `file`, optional `type`)',
    method: 'POST',
    path: `${PN}/media`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/media' },
    body: 'multipart',
    special: true,
    notes: 'Supported types and size limits below; re-encoded as multipart with messaging_product',
  },
  {
    operation: 'getMedia',
    area: 'Media',
    summary: 'Media metadata with a download URL (valid 5 minutes, needs the upstream token: use the download route)',
    method: 'GET',
    path: `${PN}/media/{mediaId}`,
    target: 'phone-number',
    upstream: { method: 'GET', path: '/{mediaId}' },
    body: 'none',
    fixedQuery: { phone_number_id: '{phoneNumberId}' },
    notes: '`phone_number_id` makes Meta check the media belongs to that number; Meta\'s "not found/not yours" answers become 404',
  },
  {
    operation: 'downloadMedia',
    area: 'Media',
    summary: 'Download the media file itself (binary, with its Content-Type)',
    method: 'GET',
    path: `${PN}/media/{mediaId}/download`,
    target: 'phone-number',
    upstream: { method: 'GET', path: '/{mediaId}' },
    body: 'none',
    fixedQuery: { phone_number_id: '{phoneNumberId}' },
    binaryResponse: true,
    special: true,
    notes:
      "Reads the metadata (scoped by phone_number_id), then fetches its URL with the account token; files up to 4 MB (Lambda's 6 MB response cap after base64)",
  },
  {
    operation: 'deleteMedia',
    area: 'Media',
    summary: 'Delete media',
    method: 'DELETE',
    path: `${PN}/media/{mediaId}`,
    target: 'phone-number',
    upstream: { method: 'DELETE', path: '/{mediaId}' },
    body: 'none',
    fixedQuery: { phone_number_id: '{phoneNumberId}' },
  },

  // Business profile and phone-number settings
  {
    operation: 'getBusinessProfile',
    area: 'Profile and settings',
    summary: 'Read the business profile',
    method: 'GET',
    path: `${PN}/business-profile`,
    target: 'phone-number',
    upstream: { method: 'GET', path: '/{phoneNumberId}/whatsapp_business_profile' },
    body: 'none',
  },
  {
    operation: 'updateBusinessProfile',
    area: 'Profile and settings',
    summary: 'Update the business profile (about, address, description, email, websites, vertical, profile_picture_handle)',
    method: 'POST',
    path: `${PN}/business-profile`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/whatsapp_business_profile' },
    body: 'json',
    messagingProduct: true,
  },
  {
    operation: 'getPhoneNumberSettings',
    area: 'Profile and settings',
    summary: 'Read the phone-number settings',
    method: 'GET',
    path: `${PN}/settings`,
    target: 'phone-number',
    upstream: { method: 'GET', path: '/{phoneNumberId}/settings' },
    body: 'none',
  },
  {
    operation: 'updatePhoneNumberSettings',
    area: 'Profile and settings',
    summary: 'Update the phone-number settings',
    method: 'POST',
    path: `${PN}/settings`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/settings' },
    body: 'json',
  },

  // Analytics
  {
    operation: 'getMessagingAnalytics',
    area: 'Analytics',
    summary: 'Messaging analytics (sent, delivered)',
    method: 'GET',
    path: `${WABA}/analytics/messaging`,
    target: 'waba',
    upstream: { method: 'GET', path: '/{wabaId}?fields=analytics...' },
    body: 'none',
    fieldExpansion: { field: 'analytics', required: ['start', 'end', 'granularity'], optional: ['phone_numbers', 'product_types', 'country_codes'] },
  },
  {
    operation: 'getConversationAnalytics',
    area: 'Analytics',
    summary: 'Conversation analytics (conversations and cost)',
    method: 'GET',
    path: `${WABA}/analytics/conversations`,
    target: 'waba',
    upstream: { method: 'GET', path: '/{wabaId}?fields=conversation_analytics...' },
    body: 'none',
    fieldExpansion: {
      field: 'conversation_analytics',
      required: ['start', 'end', 'granularity'],
      optional: ['phone_numbers', 'metric_types', 'conversation_categories', 'conversation_types', 'conversation_directions', 'dimensions', 'country_codes'],
    },
  },
  {
    operation: 'getPricingAnalytics',
    area: 'Analytics',
    summary: 'Pricing analytics (per-message pricing volume and cost)',
    method: 'GET',
    path: `${WABA}/analytics/pricing`,
    target: 'waba',
    upstream: { method: 'GET', path: '/{wabaId}?fields=pricing_analytics...' },
    body: 'none',
    fieldExpansion: {
      field: 'pricing_analytics',
      required: ['start', 'end', 'granularity'],
      optional: ['phone_numbers', 'country_codes', 'metric_types', 'pricing_types', 'pricing_categories', 'tiers', 'dimensions'],
    },
  },
  {
    operation: 'getTemplateAnalytics',
    area: 'Analytics',
    summary: 'Template analytics (sent, delivered, read, clicked per template)',
    method: 'GET',
    path: `${WABA}/analytics/templates`,
    target: 'waba',
    upstream: { method: 'GET', path: '/{wabaId}/template_analytics' },
    body: 'none',
    query: ['start', 'end', 'granularity', 'template_ids', 'metric_types', 'product_type'],
    requiredQuery: ['start', 'end', 'granularity', 'template_ids'],
    notes: 'Scoped upstream by the WABA path',
  },

  // Flows
  {
    operation: 'listFlows',
    area: 'Flows',
    summary: 'List flows',
    method: 'GET',
    path: `${WABA}/flows`,
    target: 'waba',
    upstream: { method: 'GET', path: '/{wabaId}/flows' },
    body: 'none',
    query: [...PAGING],
  },
  {
    operation: 'createFlow',
    area: 'Flows',
    summary: 'Create a flow (`name`, `categories`, optional `flow_json`, `publish`, `clone_flow_id`, `endpoint_uri`)',
    method: 'POST',
    path: `${WABA}/flows`,
    target: 'waba',
    upstream: { method: 'POST', path: '/{wabaId}/flows' },
    body: 'json',
    requiredBody: ['name', 'categories'],
    ownedIds: [{ kind: 'flow', source: 'body', name: 'clone_flow_id', required: false }],
  },
  {
    operation: 'getFlow',
    area: 'Flows',
    summary: 'One flow (status, validation errors, preview, ...)',
    method: 'GET',
    path: `${WABA}/flows/{flowId}`,
    target: 'waba',
    upstream: { method: 'GET', path: '/{flowId}' },
    body: 'none',
    ownedIds: [{ kind: 'flow', source: 'path', name: 'flowId', required: true }],
  },
  {
    operation: 'updateFlow',
    area: 'Flows',
    summary: 'Update flow metadata (name, categories, endpoint_uri, application_id)',
    method: 'POST',
    path: `${WABA}/flows/{flowId}`,
    target: 'waba',
    upstream: { method: 'POST', path: '/{flowId}' },
    body: 'json',
    ownedIds: [{ kind: 'flow', source: 'path', name: 'flowId', required: true }],
  },
  {
    operation: 'deleteFlow',
    area: 'Flows',
    summary: 'Delete a draft flow',
    method: 'DELETE',
    path: `${WABA}/flows/{flowId}`,
    target: 'waba',
    upstream: { method: 'DELETE', path: '/{flowId}' },
    body: 'none',
    ownedIds: [{ kind: 'flow', source: 'path', name: 'flowId', required: true }],
  },
  {
    operation: 'listFlowAssets',
    area: 'Flows',
    summary: "List a flow's assets (the flow JSON with a download URL)",
    method: 'GET',
    path: `${WABA}/flows/{flowId}/assets`,
    target: 'waba',
    upstream: { method: 'GET', path: '/{flowId}/assets' },
    body: 'none',
    ownedIds: [{ kind: 'flow', source: 'path', name: 'flowId', required: true }],
  },
  {
    operation: 'uploadFlowJson',
    area: 'Flows',
    summary: 'Upload the flow JSON (multipart/form-data: `file` flow.json)',
    method: 'POST',
    path: `${WABA}/flows/{flowId}/assets`,
    target: 'waba',
    upstream: { method: 'POST', path: '/{flowId}/assets' },
    body: 'multipart',
    ownedIds: [{ kind: 'flow', source: 'path', name: 'flowId', required: true }],
    special: true,
    notes: 'The file must be valid JSON (≤ 4 MB); `name` defaults to flow.json and `asset_type` to FLOW_JSON',
  },
  {
    operation: 'publishFlow',
    area: 'Flows',
    summary: 'Publish a flow',
    method: 'POST',
    path: `${WABA}/flows/{flowId}/publish`,
    target: 'waba',
    upstream: { method: 'POST', path: '/{flowId}/publish' },
    body: 'none',
    ownedIds: [{ kind: 'flow', source: 'path', name: 'flowId', required: true }],
  },
  {
    operation: 'deprecateFlow',
    area: 'Flows',
    summary: 'Deprecate a published flow',
    method: 'POST',
    path: `${WABA}/flows/{flowId}/deprecate`,
    target: 'waba',
    upstream: { method: 'POST', path: '/{flowId}/deprecate' },
    body: 'none',
    ownedIds: [{ kind: 'flow', source: 'path', name: 'flowId', required: true }],
  },

  // Click-to-chat QR codes
  {
    operation: 'listQrCodes',
    area: 'QR codes',
    summary: 'List QR codes with prefilled messages',
    method: 'GET',
    path: `${PN}/qr-codes`,
    target: 'phone-number',
    upstream: { method: 'GET', path: '/{phoneNumberId}/message_qrdls' },
    body: 'none',
    query: ['code', ...PAGING],
  },
  {
    operation: 'createQrCode',
    area: 'QR codes',
    summary: 'Create a QR code (`prefilled_message`, `generate_qr_image`: SVG or PNG)',
    method: 'POST',
    path: `${PN}/qr-codes`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/message_qrdls' },
    body: 'json',
    requiredBody: ['prefilled_message'],
    bodyEnums: { generate_qr_image: ['SVG', 'PNG'] },
  },
  {
    operation: 'getQrCode',
    area: 'QR codes',
    summary: 'One QR code',
    method: 'GET',
    path: `${PN}/qr-codes/{qrCodeId}`,
    target: 'phone-number',
    upstream: { method: 'GET', path: '/{phoneNumberId}/message_qrdls/{qrCodeId}' },
    body: 'none',
    ownedIds: [{ kind: 'qr-code', source: 'path', name: 'qrCodeId', required: true }],
  },
  {
    operation: 'updateQrCode',
    area: 'QR codes',
    summary: "Change a QR code's prefilled message",
    method: 'POST',
    path: `${PN}/qr-codes/{qrCodeId}`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/message_qrdls' },
    body: 'json',
    ownedIds: [{ kind: 'qr-code', source: 'path', name: 'qrCodeId', required: true }],
    requiredBody: ['prefilled_message'],
    fixedBody: { code: '{qrCodeId}' },
  },
  {
    operation: 'deleteQrCode',
    area: 'QR codes',
    summary: 'Delete a QR code',
    method: 'DELETE',
    path: `${PN}/qr-codes/{qrCodeId}`,
    target: 'phone-number',
    upstream: { method: 'DELETE', path: '/{phoneNumberId}/message_qrdls/{qrCodeId}' },
    body: 'none',
    ownedIds: [{ kind: 'qr-code', source: 'path', name: 'qrCodeId', required: true }],
  },

  // Automation
  {
    operation: 'getConversationalAutomation',
    area: 'Automation',
    summary: 'Read ice breakers (prompts), commands and the welcome-message setting',
    method: 'GET',
    path: `${PN}/automation`,
    target: 'phone-number',
    upstream: { method: 'GET', path: '/{phoneNumberId}?fields=conversational_automation' },
    body: 'none',
    fixedQuery: { fields: 'conversational_automation' },
  },
  {
    operation: 'updateConversationalAutomation',
    area: 'Automation',
    summary: 'Set ice breakers (`prompts`), `commands` [{command_name, command_description}] and `enable_welcome_message`',
    method: 'POST',
    path: `${PN}/automation`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/conversational_automation' },
    body: 'json',
  },

  // Number administration
  {
    operation: 'registerPhoneNumber',
    area: 'Number administration',
    summary: 'Register the number for Cloud API use (`pin`: the two-step verification PIN)',
    method: 'POST',
    path: `${PN}/register`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/register' },
    body: 'json',
    messagingProduct: true,
    requiredBody: ['pin'],
  },
  {
    operation: 'deregisterPhoneNumber',
    area: 'Number administration',
    summary: 'Deregister the number',
    method: 'POST',
    path: `${PN}/deregister`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/deregister' },
    body: 'none',
  },
  {
    operation: 'setTwoStepVerificationPin',
    area: 'Number administration',
    summary: 'Set the two-step verification PIN (`pin`, 6 digits)',
    method: 'POST',
    path: `${PN}/two-step-verification`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}' },
    body: 'json',
    requiredBody: ['pin'],
  },
  {
    operation: 'syncCoexistence',
    area: 'Number administration',
    summary: 'Coexistence (WhatsApp Business app) synchronization: `sync_type` smb_app_state_sync (contacts) or history',
    method: 'POST',
    path: `${PN}/coexistence/sync`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/smb_app_data' },
    body: 'json',
    messagingProduct: true,
    requiredBody: ['sync_type'],
    bodyEnums: { sync_type: ['smb_app_state_sync', 'history'] },
  },

  // Webhook subscriptions
  {
    operation: 'listSubscribedApps',
    area: 'Webhooks',
    summary: "Apps subscribed to the business account's webhooks",
    method: 'GET',
    path: `${WABA}/subscribed-apps`,
    target: 'waba',
    upstream: { method: 'GET', path: '/{wabaId}/subscribed_apps' },
    body: 'none',
  },
  {
    operation: 'subscribeApp',
    area: 'Webhooks',
    summary: "Subscribe the app to the account's webhooks (optional `override_callback_uri`, `verify_token`)",
    method: 'POST',
    path: `${WABA}/subscribed-apps`,
    target: 'waba',
    upstream: { method: 'POST', path: '/{wabaId}/subscribed_apps' },
    body: 'json',
  },
  {
    operation: 'unsubscribeApp',
    area: 'Webhooks',
    summary: "Unsubscribe the app from the account's webhooks",
    method: 'DELETE',
    path: `${WABA}/subscribed-apps`,
    target: 'waba',
    upstream: { method: 'DELETE', path: '/{wabaId}/subscribed_apps' },
    body: 'none',
  },

  // Block list
  {
    operation: 'listBlockedUsers',
    area: 'Block list',
    summary: 'List blocked WhatsApp users',
    method: 'GET',
    path: `${PN}/block-list`,
    target: 'phone-number',
    upstream: { method: 'GET', path: '/{phoneNumberId}/block_users' },
    body: 'none',
    query: [...PAGING],
  },
  {
    operation: 'blockUsers',
    area: 'Block list',
    summary: 'Block users (`block_users`: [{ user }])',
    method: 'POST',
    path: `${PN}/block-list`,
    target: 'phone-number',
    upstream: { method: 'POST', path: '/{phoneNumberId}/block_users' },
    body: 'json',
    messagingProduct: true,
    requiredBody: ['block_users'],
  },
  {
    operation: 'unblockUsers',
    area: 'Block list',
    summary: 'Unblock users (`block_users`: [{ user }])',
    method: 'POST',
    path: `${PN}/block-list/unblock`,
    target: 'phone-number',
    upstream: { method: 'DELETE', path: '/{phoneNumberId}/block_users' },
    body: 'json',
    messagingProduct: true,
    requiredBody: ['block_users'],
    notes: "A POST because Graph's unblock is a DELETE with a JSON body, which many HTTP clients cannot send",
  },
];

/** The route of an operation; throws for an unknown name (a table/handler mismatch is a bug). */
export function upstreamRouteOf(operation: string): UpstreamRouteSpec {
  const found = upstreamRoutes.find((route) => route.operation === operation);
  if (!found) throw new Error(`No /upstream route has operation ${operation}`);
  return found;
}
