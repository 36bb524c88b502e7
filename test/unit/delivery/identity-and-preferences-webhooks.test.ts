/**
 * Meta's identity-change system messages and the `user_preferences` field as the delivery-events
 * processor reads and routes them (issue 35 item 8; ../shared/meta/usernames-and-bsuid.md §4,
 * fact sheet rows 5 and 6).
 */
import { applyWebhookBatch, type DeliveryEventPorts } from '../../../shared/delivery/apply-webhook-batch';
import type { InboundMessage, MarketingPreference } from '../../../shared/delivery/ports';
import { parseWebhookBody, type MessagesChange } from '../../../shared/delivery/webhook-payload.schema';
import { FakeLedgerDeliveryStore, FakeOwnerDirectory, RecordingLog, webhookBody } from '../../support/delivery-fakes';

const NOW = new Date('2026-11-02T08:00:00.000Z');

const systemMessage = (system: Record<string, unknown>, sender: Record<string, unknown> = { from: '447700900123', from_user_id: 'GB.old' }) => ({
  ...sender,
  id: 'wamid.sys',
  timestamp: '1793606400',
  type: 'system',
  system: { body: 'User changed number', ...system },
});

const preferencesBody = (
  preferences: unknown[],
  metadata: Record<string, unknown> | null = { phone_number_id: 'pn_a', display_phone_number: '15550001111' },
  wabaId = 'waba-1',
) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: wabaId,
      changes: [{ field: 'user_preferences', value: { messaging_product: 'whatsapp', ...(metadata ? { metadata } : {}), user_preferences: preferences } }],
    },
  ],
});

describe('identity-change system messages', () => {
  const changeOf = (message: unknown) =>
    (parseWebhookBody(webhookBody([{ phoneNumberId: 'pn_a', messages: [message] }]), NOW).changes[0] as MessagesChange).messages[0]!;

  test('user_changed_number: the new ids, the previous ones from system.previous_*, the old number from `from`', () => {
    const message = changeOf(
      systemMessage({
        type: 'user_changed_number',
        user_id: 'GB.new',
        parent_user_id: 'GB.ENT.new',
        wa_id: '447700900999',
        previous_user_id: 'GB.old',
        previous_parent_user_id: 'GB.ENT.old',
      }),
    );
    expect(message.userIdChange).toEqual({
      userId: 'GB.new',
      phoneNumber: '447700900999',
      parentUserId: 'GB.ENT.new',
      previousUserId: 'GB.old',
      previousParentUserId: 'GB.ENT.old',
      previousPhoneNumber: '447700900123',
    });
  });

  test('user_changed_user_id without previous ids (before 2026-08-11): the message’s from_user_id stands in; other system types change nothing', () => {
    expect(changeOf(systemMessage({ type: 'user_changed_user_id', user_id: 'GB.new' }, { from_user_id: 'GB.old' })).userIdChange).toEqual({
      userId: 'GB.new',
      previousUserId: 'GB.old',
    });
    expect(changeOf(systemMessage({ type: 'customer_identity_changed', user_id: 'GB.new' })).userIdChange).toBeUndefined();
    expect(changeOf(systemMessage({ type: 'user_changed_number' })).userIdChange).toBeUndefined();
  });
});

describe('the user_preferences field', () => {
  const stop = {
    user_id: 'US.1',
    wa_id: '15550100001',
    category: 'marketing_messages',
    value: 'stop',
    detail: 'User requested to stop marketing messages',
    timestamp: 1793606400,
  };

  test('marketing stops and resumes are read; another category is ignored; a malformed element is skipped alone', () => {
    const parsed = parseWebhookBody(
      preferencesBody([
        stop,
        { ...stop, wa_id: undefined, value: 'resume', timestamp: '1793606460' },
        { ...stop, category: 'utility_messages' },
        { ...stop, value: 'pause' },
        { category: 'marketing_messages', value: 'stop', timestamp: 1 },
      ]),
      NOW,
    );
    expect(parsed.changes).toEqual([
      {
        kind: 'user-preferences',
        entryId: 'waba-1',
        phoneNumberId: 'pn_a',
        preferences: [
          { phoneNumber: '15550100001', userId: 'US.1', value: 'stop', timestamp: new Date(1_793_606_400_000) },
          { userId: 'US.1', value: 'resume', timestamp: new Date(1_793_606_460_000) },
        ],
      },
    ]);
    expect(parsed.skipped.map((element) => element.at)).toEqual([
      'entry[0].changes[0].value.user_preferences[3]',
      'entry[0].changes[0].value.user_preferences[4]',
    ]);
    expect(parsed.ignored).toBe(0);
  });

  test('applied to the opt-outs of the organization owning the number (else the account); nobody’s is dropped', async () => {
    const owners = new FakeOwnerDirectory();
    owners.phoneNumbers.set('pn_a', { organizationId: 'org_a', wabaId: 'waba-1' });
    owners.wabas.set('waba-2', 'org_b');
    const recorded: Array<{ organizationId: string; preference: MarketingPreference }> = [];
    const inbound: InboundMessage[] = [];
    const log = new RecordingLog();
    const ports: DeliveryEventPorts = {
      owners,
      ledger: new FakeLedgerDeliveryStore(),
      log,
      inbound: { recordInbound: async (_organizationId, message) => void inbound.push(message) },
      preferences: { recordMarketingPreference: async (organizationId, preference) => void recorded.push({ organizationId, preference }) },
    };
    await applyWebhookBatch(ports, preferencesBody([stop]), NOW);
    await applyWebhookBatch(ports, preferencesBody([{ ...stop, value: 'resume' }], null, 'waba-2'), NOW);
    await applyWebhookBatch(ports, preferencesBody([stop], { phone_number_id: 'pn_unknown' }), NOW);
    expect(recorded).toEqual([
      { organizationId: 'org_a', preference: expect.objectContaining({ userId: 'US.1', value: 'stop' }) },
      { organizationId: 'org_b', preference: expect.objectContaining({ userId: 'US.1', value: 'resume' }) },
    ]);
    expect(inbound).toEqual([]);
    expect(JSON.stringify(log)).not.toContain('15550100001');
  });
});
