/**
 * Which broadcast routes a person may call with their own sign-in (`Authorization: Bearer`, the
 * console's token; docs/PEOPLE.md "Roles"), and the least role each needs. Keyed by operation; a
 * broadcast-api-key route not listed here takes the organization's API key only (back ends: sends,
 * the earlier operations). The API enforces this table; the console only hides what it would refuse.
 *
 * Pure data (no imports but types), read by the route manifest, the pipeline and the docs.
 */
import type { PersonRole } from '../shared/people/person-role';

export const personAccess: Readonly<Record<string, PersonRole>> = {
  // Reading everything of the organization.
  listPhoneNumbers: 'viewer',
  listTemplates: 'viewer',
  getJobStatus: 'viewer',
  listRecipients: 'viewer',
  listBroadcasts: 'viewer',
  listCampaignRecipients: 'viewer',
  listCampaigns: 'viewer',
  getCampaign: 'viewer',
  listAudiences: 'viewer',
  getAudience: 'viewer',
  listMembers: 'viewer',
  listWebhooks: 'viewer',
  // Running campaigns: audiences, campaigns, launch (and its dry run), controls, follow-ups.
  createAudience: 'campaign-manager',
  deleteAudience: 'campaign-manager',
  upsertMembers: 'campaign-manager',
  removeMembers: 'campaign-manager',
  createCampaign: 'campaign-manager',
  launchCampaign: 'campaign-manager',
  pauseCampaign: 'campaign-manager',
  resumeCampaign: 'campaign-manager',
  cancelCampaign: 'campaign-manager',
  campaignFollowUp: 'campaign-manager',
  pauseJob: 'campaign-manager',
  resumeJob: 'campaign-manager',
  cancelJob: 'campaign-manager',
  followUp: 'campaign-manager',
  // The organization's set-up: customer webhooks (people, keys and the audit log add their rows).
  registerWebhook: 'admin',
  deleteWebhook: 'admin',
  testWebhook: 'admin',
  redeliverWebhook: 'admin',
  // Who is calling, and the organization's people (docs/PEOPLE.md "People").
  getMe: 'viewer',
  listPeople: 'admin',
  invitePerson: 'admin',
  setPersonRole: 'admin',
  removePerson: 'admin',
  // The audit log (docs/PEOPLE.md "Audit log").
  listAuditLog: 'admin',
  // The organization's own API keys (docs/PEOPLE.md "API keys").
  listApiKeys: 'admin',
  createApiKey: 'admin',
  revokeApiKey: 'admin',
  // The organization's contact policy (docs/CAMPAIGNS.md "Frequency caps").
  getContactPolicy: 'viewer',
  setContactPolicy: 'admin',
  removeContactPolicy: 'admin',
};

/**
 * Broadcast-api-key operations deliberately left to back ends (an API key), so the table above is a
 * decision for every route: a test fails when a new keyed route is in neither list.
 */
export const apiKeyOnlyOperations: readonly string[] = ['sendTemplateBroadcast', 'sendFreeform', 'sendSingle', 'sendBulk'];

/**
 * The least role a person needs for an operation, or undefined when people may not call it.
 *
 * @example
 * personRoleFor('launchCampaign'); // 'campaign-manager'
 * personRoleFor('sendFreeform'); // undefined
 */
export const personRoleFor = (operation: string): PersonRole | undefined => personAccess[operation];
