/**
 * A `user_preferences` change applied (apply-webhook-batch.ts; docs/DELIVERY-STATUS.md "User
 * preferences"): each marketing preference goes to the opt-out list of the organization owning the
 * change's number (else its WABA) through the MarketingPreferenceSink port, and a stop is attributed
 * as an opt-out to the person's latest touch within its window (ReplyAttribution `stoppedMarketing`:
 * what a campaign's canary counts). Idempotent like the rest of the batch: a store error propagates
 * and the batch is applied again. Logs carry ids only.
 */
import type { MarketingPreferenceSink, ReplyAttribution } from './ports';
import type { UserPreferencesChange } from './user-preferences.schema';

/**
 * Records the change's preferences for `owner` (undefined: nobody on this platform owns the number
 * or account, the change is dropped and logged).
 *
 * @example
 * await applyUserPreferences({ preferences: sink, log }, change, Promise.resolve({ organizationId: 'org_1' }));
 */
export async function applyUserPreferences(
  ports: {
    preferences?: MarketingPreferenceSink;
    attribution?: Pick<ReplyAttribution, 'stoppedMarketing'>;
    log: { info(message: string, attributes?: Record<string, unknown>): void; warn(message: string, attributes?: Record<string, unknown>): void };
  },
  change: UserPreferencesChange,
  owner: Promise<{ organizationId: string } | undefined>,
): Promise<void> {
  const ids = {
    kind: 'user-preferences',
    wabaId: change.entryId,
    ...(change.phoneNumberId === undefined ? {} : { phoneNumberId: change.phoneNumberId }),
    count: change.preferences.length,
  };
  if (change.preferences.length === 0) return;
  const found = await owner;
  if (!found) {
    ports.log.warn('dropped: phone number id owned by no organization', ids);
    return;
  }
  if (!ports.preferences) {
    ports.log.warn('dropped: no sink', { ...ids, organizationId: found.organizationId });
    return;
  }
  for (const preference of change.preferences) {
    await ports.preferences.recordMarketingPreference(found.organizationId, preference);
    const keys = [preference.phoneNumber, preference.userId].filter((key): key is string => key !== undefined);
    if (preference.value === 'stop') await ports.attribution?.stoppedMarketing?.(found.organizationId, keys, preference.timestamp);
  }
  ports.log.info('user preferences recorded', { ...ids, organizationId: found.organizationId });
}
