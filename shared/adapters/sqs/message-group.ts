/**
 * The one rule for a queue message's `MessageGroupId`: the tenant it belongs to. On a standard queue
 * SQS treats the group as the tenant of a fair queue (docs/SCALE.md "Fair queues"): a tenant with a
 * backlog no longer lengthens the other tenants' dwell time. A message without a group would count
 * as a tenant of its own, so every message the platform sends carries one.
 *
 * The tenant is what the message already names: the organization id (chunk messages, campaign
 * expansions, customer-event deliveries) or, for Meta's webhook POSTs whose organization is only
 * known after they are applied, the WhatsApp business account id (shared/meta-app/meta-event-tenant.ts).
 * Neither is a phone number nor a secret. Re-queued messages (continuations, retries, deferrals,
 * dead-letter replays) are built from the same message, so they keep their group.
 */
import { createHash } from 'node:crypto';

/** SQS's limit: at most 128 characters, alphanumeric or punctuation (`!"#$%&'()*+,-./:;<=>?@[\]^_\`{|}~`). */
export const MAX_MESSAGE_GROUP_ID_LENGTH = 128;
const SQS_GROUP_ID = /^[A-Za-z0-9!-/:-@[-`{-~]{1,128}$/;

/**
 * The group id of a tenant: the tenant itself when SQS accepts it as a group id, else a digest of it
 * (`sha256:` and 64 hex digits), so an unusual id still maps to one stable, valid group.
 *
 * @example
 * messageGroupIdOf('org_7Hq2');  // 'org_7Hq2'
 * messageGroupIdOf('naïve id');  // 'sha256:…' (64 hex digits)
 */
export function messageGroupIdOf(tenant: string): string {
  if (SQS_GROUP_ID.test(tenant)) return tenant;
  return `sha256:${createHash('sha256').update(tenant).digest('hex')}`;
}
