/**
 * Webhooks of users known by BSUID (../shared/meta/usernames-and-bsuid.md §4, §5): inbound messages
 * without `from`, the pairs a change shows (inbound with both ids, `sent` statuses with both), and
 * the processor handing them to the contact book once per change.
 */
import { applyWebhookBatch, type DeliveryEventPorts } from '../../../shared/delivery/apply-webhook-batch';
import { messageReceivedEvent } from '../../../shared/delivery/delivery-customer-events';
import { identityPairsOf } from '../../../shared/delivery/identity-pairs-of-change';
import type { UserIdentityPair } from '../../../shared/delivery/ports';
import { parseWebhookBody, type MessagesChange } from '../../../shared/delivery/webhook-payload.schema';
import { FakeLedgerDeliveryStore, FakeOwnerDirectory, RecordingLog, webhookBody } from '../../support/delivery-fakes';

const NOW = new Date('2026-05-04T08:00:00.000Z');
const bsuid = 'BR.8837261900011';

const messagesOf = (body: unknown): MessagesChange => parseWebhookBody(body, NOW).changes[0] as MessagesChange;

describe('inbound messages of BSUID users', () => {
  test('a message without `from` is read by `from_user_id`, with the profile and username of the contact of that user_id', () => {
    const body = webhookBody([
      {
        phoneNumberId: 'pn_a',
        contacts: [{ profile: { name: 'Ana R.', username: 'ana.r' }, user_id: bsuid, parent_user_id: 'BR.ENT.55510293847' }],
        messages: [
          { from_user_id: bsuid, from_parent_user_id: 'BR.ENT.55510293847', id: 'wamid.1', timestamp: '1767225600', type: 'text', text: { body: 'oi' } },
        ],
      },
    ]);
    const change = messagesOf(body);
    expect(change.messages).toEqual([
      expect.objectContaining({
        messageId: 'wamid.1',
        fromUserId: bsuid,
        parentUserId: 'BR.ENT.55510293847',
        profileName: 'Ana R.',
        username: 'ana.r',
        text: 'oi',
      }),
    ]);
    expect(change.messages[0]).not.toHaveProperty('from');
    const event = messageReceivedEvent(change.messages[0]!, NOW);
    expect(event.data).toMatchObject({ fromUserId: bsuid, profileName: 'Ana R.' });
    expect(event.data).not.toHaveProperty('from');
  });

  test('a message with neither `from` nor `from_user_id` is skipped; one with `from` only is read as before', () => {
    const parsed = parseWebhookBody(
      webhookBody([
        {
          phoneNumberId: 'pn_a',
          messages: [
            { id: 'wamid.1', timestamp: '1767225600', type: 'text' },
            { from: '447700900123', id: 'wamid.2', timestamp: '1767225600', type: 'text' },
          ],
        },
      ]),
      NOW,
    );
    expect(parsed.skipped).toEqual([{ at: 'entry[0].changes[0].value.messages[0]', problem: 'from or from_user_id is required' }]);
    expect((parsed.changes[0] as MessagesChange).messages).toEqual([expect.objectContaining({ messageId: 'wamid.2', from: '447700900123' })]);
    expect(messageReceivedEvent((parsed.changes[0] as MessagesChange).messages[0]!, NOW).data).toMatchObject({ from: '447700900123', fromUserId: null });
  });
});

describe('pairs of a change (identityPairsOf)', () => {
  const status = (stage: string, extra: Record<string, unknown>) => ({ id: `wamid.${stage}`, status: stage, timestamp: '1767225700', ...extra });

  test('inbound messages with both ids and `sent` statuses with both; not delivered/read, not a withheld number', () => {
    const change = messagesOf(
      webhookBody([
        {
          phoneNumberId: 'pn_a',
          messages: [
            { from: '5511987654321', from_user_id: bsuid, id: 'wamid.in', timestamp: '1767225600', type: 'text' },
            { from_user_id: 'BR.2', id: 'wamid.in2', timestamp: '1767225600', type: 'text' },
          ],
          statuses: [
            status('sent', { recipient_id: '447700900123', recipient_user_id: 'GB.1' }),
            status('delivered', { recipient_id: '447700900123', recipient_user_id: 'GB.1' }),
            status('sent', { recipient_user_id: 'GB.2' }),
          ],
        },
      ]),
    );
    expect(identityPairsOf(change)).toEqual([
      { phoneNumber: '5511987654321', userId: bsuid, at: new Date(1_767_225_600_000) },
      { phoneNumber: '447700900123', userId: 'GB.1', at: new Date(1_767_225_700_000) },
    ]);
  });

  test('a user_changed_user_id system message pairs the new BSUID with system.wa_id, never with `from`', () => {
    const system = (extra: Record<string, unknown>) => ({
      from: '447700900123',
      from_user_id: 'GB.old',
      id: `wamid.sys${Object.keys(extra).length}`,
      timestamp: '1767225800',
      type: 'system',
      system: { body: 'User changed number', type: 'user_changed_user_id', user_id: 'GB.new', ...extra },
    });
    const change = messagesOf(webhookBody([{ phoneNumberId: 'pn_a', messages: [system({ wa_id: '447700900999' }), system({})] }]));
    expect(identityPairsOf(change)).toEqual([{ phoneNumber: '447700900999', userId: 'GB.new', at: new Date(1_767_225_800_000) }]);
  });

  test('the processor hands a change’s pairs to the contact book in one call, for the owning organization', async () => {
    const owners = new FakeOwnerDirectory();
    owners.phoneNumbers.set('pn_a', { organizationId: 'org_a', wabaId: 'waba-a' });
    const calls: Array<{ organizationId: string; pairs: readonly UserIdentityPair[] }> = [];
    const ports: DeliveryEventPorts = {
      owners,
      ledger: new FakeLedgerDeliveryStore(),
      log: new RecordingLog(),
      inbound: { recordInbound: async () => undefined },
      identities: { recordPairs: async (organizationId, pairs) => void calls.push({ organizationId, pairs }) },
    };
    const messages = [1, 2].map((n) => ({ from: '5511987654321', from_user_id: bsuid, id: `wamid.${n}`, timestamp: '1767225600', type: 'text' }));
    await applyWebhookBatch(
      ports,
      webhookBody([
        { phoneNumberId: 'pn_a', messages },
        { phoneNumberId: 'pn_unknown', messages },
      ]),
      NOW,
    );
    expect(calls).toEqual([{ organizationId: 'org_a', pairs: [expect.objectContaining({ userId: bsuid }), expect.objectContaining({ userId: bsuid })] }]);
  });
});
