/**
 * Whose webhook POST is this? The metaEvents queue is shared by every organization, and its
 * messages carry a tenant as their fair-queue group (shared/adapters/sqs/message-group.ts). The
 * organization is only known once the processor has looked the account up, so the intake names the
 * WhatsApp business account instead: `entry[0].id` of Meta's batch, the account whose statuses,
 * messages or template changes the entry carries. An account belongs to one organization, so a
 * backlog of one organization's statuses is one tenant's backlog (or a few, one per account). It is
 * an account number, neither a phone number nor a secret.
 */

/** The tenant of a POST whose first entry names no account (not Meta's shape): they all share one group. */
export const UNATTRIBUTED_META_EVENTS = 'meta-events-unattributed';

/** Meta's business account ids are digit strings; anything else is not trusted as a group. */
const ACCOUNT_ID = /^\d{1,64}$/;

/**
 * The business account id of a webhook POST (or of a part of a split one), else
 * {@link UNATTRIBUTED_META_EVENTS}. Parses the text: the intake calls it once per queued part.
 *
 * @example
 * metaEventTenantOf('{"object":"whatsapp_business_account","entry":[{"id":"102290129340398","changes":[]}]}');
 * // '102290129340398'
 */
export function metaEventTenantOf(batchText: string): string {
  let batch: unknown;
  try {
    batch = JSON.parse(batchText);
  } catch {
    return UNATTRIBUTED_META_EVENTS;
  }
  const entries = isObject(batch) ? batch.entry : undefined;
  const first: unknown = Array.isArray(entries) ? entries[0] : undefined;
  const id = isObject(first) ? first.id : undefined;
  return typeof id === 'string' && ACCOUNT_ID.test(id) ? id : UNATTRIBUTED_META_EVENTS;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
