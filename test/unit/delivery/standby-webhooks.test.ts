/**
 * Meta's `standby` field (fact sheet row 7, ../shared/meta/platform-changes-2026-h2.md): a number's
 * inbound messages while another app (Meta Business Agent, a second partner) holds the conversation,
 * in the `messages` value shape. Read like `messages`: the contact, the 24-hour window, STOP
 * keywords and identity pairs; every message and its `message.received` event marked `standby`.
 */
import { applyWebhookBatch, type DeliveryEventPorts } from '../../../shared/delivery/apply-webhook-batch';
import { messageReceivedEvent } from '../../../shared/delivery/delivery-customer-events';
import { identityPairsOf } from '../../../shared/delivery/identity-pairs-of-change';
import type { InboundMessage } from '../../../shared/delivery/ports';
import { parseWebhookBody, STANDBY_FIELD, type MessagesChange } from '../../../shared/delivery/webhook-payload.schema';
import { defaultOptInKeywords, defaultOptOutKeywords, optOutKeywordsOf } from '../../../shared/inbox/opt-outs';
import { InboxInboundMessageSink } from '../../../shared/module-bridges/inbox-inbound-sink';
import { FakeLedgerDeliveryStore, FakeOwnerDirectory, RecordingLog, webhookBody } from '../../support/delivery-fakes';
import { createInboxTestKit, senderA } from '../inbox/inbox-test-kit';

const NOW = new Date('2026-03-02T09:00:00.000Z');
const phone = '5511987654321';
const bsuid = 'BR.8837261900011';

/** The same body on the `standby` field. */
function onStandby(body: Record<string, unknown>): Record<string, unknown> {
  const entries = body.entry as Array<{ changes: Array<{ field: string }> }>;
  return { ...body, entry: entries.map((entry) => ({ ...entry, changes: entry.changes.map((change) => ({ ...change, field: STANDBY_FIELD })) })) };
}

const inbound = (text: string, id = 'wamid.sb1', timestamp = '1772441000') => ({
  from: phone,
  from_user_id: bsuid,
  id,
  timestamp,
  type: 'text',
  text: { body: text },
});
const contacts = [{ profile: { name: 'Ana R.' }, wa_id: phone, user_id: bsuid }];

describe('the standby field, read like messages', () => {
  it('gives the same messages, contacts and pairs as `messages`, each marked standby; a `messages` change is not', () => {
    const body = webhookBody([{ phoneNumberId: 'pn_a', displayPhoneNumber: senderA, messages: [inbound('hola')], contacts }]);
    const standby = parseWebhookBody(onStandby(body), NOW);
    const messages = parseWebhookBody(body, NOW);
    expect(standby.ignored).toBe(0);
    const change = standby.changes[0] as MessagesChange;
    expect(change).toMatchObject({ kind: 'messages', phoneNumberId: 'pn_a', standby: true });
    const plain = messages.changes[0] as MessagesChange;
    expect(change.messages).toEqual(plain.messages.map((message) => ({ ...message, standby: true })));
    expect(change.messages[0]).toMatchObject({ from: phone, fromUserId: bsuid, profileName: 'Ana R.', text: 'hola' });
    expect(plain).not.toHaveProperty('standby');
    expect(plain.messages[0]).not.toHaveProperty('standby');
    expect(identityPairsOf(change)).toEqual(identityPairsOf(plain));
    expect(identityPairsOf(change)).toEqual([{ phoneNumber: phone, userId: bsuid, at: new Date(1772441000 * 1000) }]);
  });

  it('marks the message.received event standby (so no bot answers it); a `messages` event has no such field', () => {
    const [standby, plain] = [true, false].map((isStandby) => {
      const body = webhookBody([{ phoneNumberId: 'pn_a', messages: [inbound('hola')], contacts }]);
      return (parseWebhookBody(isStandby ? onStandby(body) : body, NOW).changes[0] as MessagesChange).messages[0]!;
    });
    expect(messageReceivedEvent(standby!, NOW).data).toMatchObject({ messageId: 'wamid.sb1', standby: true });
    expect(messageReceivedEvent(plain!, NOW).data).not.toHaveProperty('standby');
  });

  it('a STOP on standby opts the user out under both identities and opens the window; START on standby removes it', async () => {
    const kit = createInboxTestKit();
    const sink = new InboxInboundMessageSink(
      { ...kit.ports, sleep: async () => undefined },
      { senderPhoneNumberOf: async () => senderA },
      { ports: { optOuts: kit.optOuts, clock: kit.clock }, keywords: optOutKeywordsOf(defaultOptOutKeywords, defaultOptInKeywords) },
    );
    const received: InboundMessage[] = [];
    const owners = new FakeOwnerDirectory();
    owners.phoneNumbers.set('pn_a', { organizationId: 'org_a', wabaId: 'waba-1' });
    const ports: DeliveryEventPorts = {
      owners,
      ledger: new FakeLedgerDeliveryStore(),
      log: new RecordingLog(),
      inbound: {
        recordInbound: async (organizationId, message) => {
          received.push(message);
          await sink.recordInbound(organizationId, message);
        },
      },
    };
    const listed = async () =>
      (await kit.services.listOptOuts({ organizationId: 'org_a', page: 1, pageSize: 100 })).items.map((entry) => entry.phoneNumber).sort();

    const report = await applyWebhookBatch(
      ports,
      onStandby(webhookBody([{ phoneNumberId: 'pn_a', displayPhoneNumber: senderA, messages: [inbound('STOP')], contacts }])),
      NOW,
    );
    expect(report).toMatchObject({ inbound: 1, skipped: 0 });
    expect(received.map((message) => message.standby)).toEqual([true]);
    expect(await listed()).toEqual([phone, bsuid].sort());
    const conversations = await kit.services.listConversations({ organizationId: 'org_a', filter: {}, page: 1, pageSize: 10 });
    expect(conversations.items).toEqual([expect.objectContaining({ senderPhoneNumber: senderA, lastInboundAt: new Date(1772441000 * 1000).toISOString() })]);

    await applyWebhookBatch(ports, onStandby(webhookBody([{ phoneNumberId: 'pn_a', messages: [inbound('START', 'wamid.sb2', '1772441060')], contacts }])), NOW);
    expect(await listed()).toEqual([]);
  });
});
