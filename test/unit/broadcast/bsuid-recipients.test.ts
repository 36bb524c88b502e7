/**
 * Broadcast recipients by business-scoped user id (docs/BROADCAST.md "Recipients by business-scoped
 * user id"): the request's rule, duplicates, Meta's 131062 refusal, the queue's `to`, the send body's
 * `recipient`, opt-outs by the BSUID, the recipients list and its stored form, status webhooks.
 */
import { decodeOutboundMessage, encodeOutboundMessage, type TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { messageBodyFor } from '../../../shared/broadcast/chunk-worker/message-building';
import { DuplicateRecipientError, UserIdNotSupportedError } from '../../../shared/broadcast/errors';
import { freeformMessageBody } from '../../../shared/broadcast/freeform-message-body';
import { freeformMessageSchema } from '../../../shared/broadcast/freeform-message.schema';
import { listRecipients, recipientsCsv, RECIPIENT_CSV_COLUMNS } from '../../../shared/broadcast/list-recipients';
import { findDuplicateRecipient, sendTemplateBroadcast } from '../../../shared/broadcast/send-template-broadcast';
import { requireSendableToUserIds } from '../../../shared/broadcast/template-checks';
import { parseTemplateBroadcastRequest, templateBroadcastSchema, type TemplateBroadcastRequest } from '../../../shared/broadcast/template-broadcast.schema';
import { decodeRecipients, recipientsItem } from '../../../shared/adapters/dynamodb/messaging-job-items';
import { parseWebhookBody } from '../../../shared/delivery/webhook-payload.schema';
import { RequestValidationError } from '../../../shared/http/errors';
import { parseRequest } from '../../../shared/http/validation';
import { fixedClock } from '../../../shared/ports/clock';
import { isBusinessScopedUserId } from '../../../shared/recipients/business-scoped-user-id';
import { optOutKeyFormsOf, optOutKeyOf } from '../../../shared/recipients/opt-out-key';
import { recipientKeyOf, recipientOfKey } from '../../../shared/recipients/recipient';
import { templateMessageBody } from '../../../shared/sending/message-bodies';
import { FixedMessagingTiers, InMemoryPortfolioReach, ORG, SENDER, broadcastRequest, template } from '../../support/broadcast-fakes';
import { reserveReach } from '../../../shared/broadcast/messaging-limit';
import { messageStatusEvent } from '../../../shared/delivery/delivery-customer-events';
import { templateBroadcastKit } from '../../support/template-broadcast-kit';

const BSUID = 'US.13491208655302741918';
const PARENT = 'US.ENT.11815799212886844830';

const withData = (data: unknown[]) => ({ ...broadcastRequest(0), data });

describe('the BSUID rule', () => {
  it.each([BSUID, PARENT, 'BR.8837261900011', `DE.${'a'.repeat(128)}`])('accepts %s', (text) => expect(isBusinessScopedUserId(text)).toBe(true));
  it.each(['447700900123', 'us.1', 'US.', 'US1', 'USA.1', 'US.1.2', 'US.ENT.', `DE.${'a'.repeat(129)}`, 'US.12 3', ' US.1'])('refuses %j', (text) =>
    expect(isBusinessScopedUserId(text)).toBe(false),
  );

  it('keys a BSUID as itself and tells the two kinds apart by form', () => {
    expect(recipientOfKey(BSUID)).toEqual({ kind: 'bsuid', userId: BSUID });
    expect(recipientOfKey('447700900123')).toEqual({ kind: 'phone', phoneNumber: '447700900123' });
    expect(recipientKeyOf(recipientOfKey(PARENT))).toBe(PARENT);
    expect(optOutKeyOf(BSUID)).toBe(BSUID);
    expect(optOutKeyFormsOf(BSUID)).toEqual([BSUID]);
  });
});

describe('the template broadcast request', () => {
  it('takes a recipient by userId (or parent BSUID) with its templateParams', () => {
    const parsed = parseTemplateBroadcastRequest(
      withData([{ userId: BSUID, templateParams: ['a', 'b'] }, { userId: PARENT }, { countryCode: '44', toPhoneNumber: '7700900123' }]),
    );
    expect(parsed.data).toEqual([{ userId: BSUID, templateParams: ['a', 'b'] }, { userId: PARENT }, { countryCode: '44', toPhoneNumber: '7700900123' }]);
  });

  it.each([
    ['both addresses', { countryCode: '44', toPhoneNumber: '7700900123', userId: BSUID }],
    ['neither address', { templateParams: ['a'] }],
    ['a userId with a countryCode only', { countryCode: '44', userId: BSUID }],
    ['a countryCode without its toPhoneNumber', { countryCode: '44' }],
  ])('refuses %s, naming data[i]', (_label, recipient) => {
    const body = withData([{ userId: 'BR.1' }, recipient]);
    const expected = new RequestValidationError('data[1] must give either countryCode and toPhoneNumber, or userId (not both)');
    expect(() => parseTemplateBroadcastRequest(body)).toThrow(expected);
    expect(() => parseRequest(templateBroadcastSchema, body)).toThrow(expected);
  });

  it('names the userId rule', () => {
    expect(() => parseTemplateBroadcastRequest(withData([{ userId: 'us.123' }]))).toThrow(/^data\[0\]\.userId must be a business-scoped user id/);
  });
});

describe('duplicates and the 131062 refusal', () => {
  const userRecipient = (userId: string) => ({ userId, templateParams: ['a', 'b'] });

  it('compares userIds with userIds: two equal ones are a duplicate, a number never equals one', () => {
    const data = [...broadcastRequest(2).data, userRecipient(BSUID), userRecipient(PARENT)];
    expect(findDuplicateRecipient(data)).toEqual([expect.any(String), expect.any(String), BSUID, PARENT]);
    expect(() => findDuplicateRecipient([...data, userRecipient(BSUID)])).toThrow(new DuplicateRecipientError(4, 2));
  });

  it('refuses an AUTHENTICATION template when any recipient is a userId, naming the index and 131062', () => {
    const authentication = template({ category: 'AUTHENTICATION' });
    const data: TemplateBroadcastRequest['data'] = [...broadcastRequest(2).data, userRecipient(BSUID)];
    expect(() => requireSendableToUserIds(authentication, data)).toThrow(UserIdNotSupportedError);
    expect(() => requireSendableToUserIds(authentication, data)).toThrow(/^data\[2\]\.userId: .*AUTHENTICATION.*131062/);
    expect(() => requireSendableToUserIds(authentication, broadcastRequest(2).data)).not.toThrow();
    expect(() => requireSendableToUserIds(template({ category: 'MARKETING' }), data)).not.toThrow();
  });

  it('queues a BSUID recipient with the id as its `to`, refuses one on the opt-out list by that id, and lists it by userId', async () => {
    const clock = fixedClock('2026-03-01T09:00:00.000Z');
    const kit = templateBroadcastKit(clock);
    kit.optOuts.seed(ORG, { phoneNumber: PARENT, source: 'api', createdAt: '2026-03-01T08:00:00.000Z' });
    const request: TemplateBroadcastRequest = { ...broadcastRequest(1), data: [...broadcastRequest(1).data, userRecipient(BSUID), userRecipient(PARENT)] };
    const accepted = await sendTemplateBroadcast(kit.dependencies, { organizationId: ORG }, request, { inProgressTimeoutMs: 20_000 });
    const queued = (kit.queue.messages as TemplateChunkMessage[]).flatMap((message) => message.recipients);
    expect(queued.map(({ to }) => to)).toEqual([expect.stringMatching(/^\d+$/), BSUID]);
    const page = await listRecipients(
      kit.broadcasts,
      { organizationId: ORG },
      (accepted as { jobId: string }).jobId,
      {},
      { now: clock.now(), unconfirmedAfterMs: 60_000 },
    );
    expect(page.recipients[1]).toMatchObject({ countryCode: '', toPhoneNumber: '', userId: BSUID });
    expect(page.recipients[2]).toMatchObject({ countryCode: '', toPhoneNumber: '', userId: PARENT, status: 'FAILED', failureReasonCode: 'OPTED_OUT' });
    expect(page.recipients[0]).not.toHaveProperty('userId');
    // userId follows sentVia; the pricing columns (issue 25 item 3) come after it, then the cost columns (issue 26, changed on purpose), then the pricing subtype (issue 35), then the four outcome columns (issue 38), then waitingUntil (issue 39), empty before any status webhook.
    expect(RECIPIENT_CSV_COLUMNS.indexOf('userId')).toBe(RECIPIENT_CSV_COLUMNS.indexOf('sentVia') + 1);
    expect(recipientsCsv(page.recipients).split('\r\n')[2]).toMatch(new RegExp(`^,,PENDING,.*,${BSUID.replace('.', '\\.')},,,,,,,,,,,,$`));
  });
});

describe('the queue and the send body', () => {
  const chunk: TemplateChunkMessage = {
    version: 1,
    kind: 'template-chunk',
    jobId: 'pub_1',
    organizationId: ORG,
    chunkIndex: 0,
    wabaId: 'waba',
    phoneNumberId: 'pn',
    template: { name: 'order_update', language: 'en_US' },
    recipients: [
      { index: 0, to: '447700900123', parameters: ['Ada'] },
      { index: 1, to: BSUID, parameters: ['Bo'] },
    ],
  };

  it('round-trips a BSUID `to`, and reads a message queued before BSUIDs as the numbers it holds', () => {
    const encoded = encodeOutboundMessage(chunk);
    expect(encoded).toContain(`[1,"${BSUID}",["Bo"]]`);
    expect(decodeOutboundMessage(encoded)).toEqual(chunk);
    const older =
      '{"version":1,"kind":"template-chunk","jobId":"pub_1","organizationId":"org","chunkIndex":0,"wabaId":"w","phoneNumberId":"p","template":{"name":"t","language":"en"},"recipients":[[0,"447700900123",[]]]}';
    const decoded = decodeOutboundMessage(older);
    expect(decoded.recipients).toEqual([{ index: 0, to: '447700900123', parameters: [] }]);
    expect(messageBodyFor(decoded, decoded.recipients[0]!)).toMatchObject({ to: '447700900123' });
  });

  it('addresses a BSUID with `recipient` (never `to`), a number with `to`', () => {
    const toUser = messageBodyFor(chunk, chunk.recipients[1]!);
    expect(toUser).toMatchObject({ recipient: BSUID, recipient_type: 'individual', type: 'template' });
    expect(toUser).not.toHaveProperty('to');
    expect(templateMessageBody(chunk.template, { to: '447700900123', parameters: [] })).toMatchObject({ to: '447700900123' });
    expect(templateMessageBody(chunk.template, { to: '447700900123', parameters: [] })).not.toHaveProperty('recipient');
  });

  it('sends a free-form message to toUserId with `recipient`; toPhoneNumber and toUserId together are refused', () => {
    const request = parseRequest(freeformMessageSchema, { fromPhoneNumber: '15550001111', toUserId: PARENT, type: 'text', text: 'Hi' });
    const body = freeformMessageBody(request);
    expect(body).toMatchObject({ recipient: PARENT, type: 'text' });
    expect(body).not.toHaveProperty('to');
    const freeform = { ...chunk, kind: 'freeform' as const, body, recipients: [{ index: 0, to: PARENT, parameters: [] }] };
    const { template: _template, ...freeformChunk } = freeform;
    expect(messageBodyFor(freeformChunk, freeformChunk.recipients[0]!)).not.toHaveProperty('to');
    expect(() =>
      parseRequest(freeformMessageSchema, { fromPhoneNumber: '15550001111', toPhoneNumber: '447700900123', toUserId: PARENT, type: 'text', text: 'Hi' }),
    ).toThrow('toUserId must not be given with toPhoneNumber');
    expect(() => parseRequest(freeformMessageSchema, { fromPhoneNumber: '15550001111', type: 'text', text: 'Hi' })).toThrow(
      'toPhoneNumber is required (or toUserId)',
    );
  });
});

describe('what stores and webhooks carry', () => {
  it('stores a listed userId as a third field, and reads lines written before it as numbers', () => {
    const item = recipientsItem(
      'pub_1',
      0,
      [
        { index: 0, countryCode: '44', toPhoneNumber: '7700900123' },
        { index: 1, countryCode: '', toPhoneNumber: '', userId: `DE.${'a'.repeat(128)}` },
      ],
      1,
    );
    expect(decodeRecipients(item)).toEqual([
      { index: 0, countryCode: '44', toPhoneNumber: '7700900123' },
      { index: 1, countryCode: '', toPhoneNumber: '', userId: `DE.${'a'.repeat(128)}` },
    ]);
    expect(decodeRecipients({ pk: 'x', sk: 'y', firstIndex: 3, recipients: '44\t7700900123' })).toEqual([
      { index: 3, countryCode: '44', toPhoneNumber: '7700900123' },
    ]);
  });

  it('applies a status of a send to a BSUID (no recipient_id): recipient_user_id names the recipient', () => {
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'waba',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550001111', phone_number_id: 'pn' },
                statuses: [
                  { id: 'wamid.1', status: 'delivered', timestamp: '1767225700', recipient_user_id: BSUID },
                  { id: 'wamid.2', status: 'sent', timestamp: '1767225700' },
                ],
              },
            },
          ],
        },
      ],
    };
    const parsed = parseWebhookBody(body, new Date());
    const change = parsed.changes[0] as { statuses: unknown[] };
    expect(change.statuses).toEqual([expect.objectContaining({ messageId: 'wamid.1', recipientId: BSUID, recipientUserId: BSUID })]);
    expect(parsed.skipped).toEqual([expect.objectContaining({ problem: 'recipient_id or recipient_user_id is required' })]);
  });

  it('carries recipientUserId in message.status (null when the status names none)', () => {
    const event = { messageId: 'wamid.1', stage: 'delivered' as const, timestamp: new Date(0), recipientId: BSUID, recipientUserId: BSUID };
    const now = new Date(1000);
    expect(messageStatusEvent({ kind: 'ledger', jobId: 'pub_1', index: 2 }, event, 'pn', now).data).toMatchObject({
      recipient: BSUID,
      recipientUserId: BSUID,
      recipientIndex: 2,
    });
    const { recipientUserId: _none, ...byNumber } = { ...event, recipientId: '447700900123' };
    expect(messageStatusEvent({ kind: 'upstream' }, byNumber, 'pn', now).data).toMatchObject({ recipient: '447700900123', recipientUserId: null });
  });

  it('counts a BSUID as one unique user of the messaging limit, beside numbers', async () => {
    const messagingTiers = new FixedMessagingTiers();
    messagingTiers.tiers.set(SENDER.phoneNumberId, 'TIER_250');
    const dependencies = { messagingTiers, portfolioReach: new InMemoryPortfolioReach() };
    const at = new Date('2026-03-01T09:30:00.000Z');
    const numbers = Array.from({ length: 249 }, (_, index) => `9198${String(index).padStart(8, '0')}`);
    await reserveReach(dependencies, SENDER, [...numbers, BSUID], at);
    // The same BSUID again is no new user; another one is the 251st.
    await reserveReach(dependencies, SENDER, [BSUID], at);
    await expect(reserveReach(dependencies, SENDER, [PARENT], at)).rejects.toMatchObject({
      code: 'MESSAGING_LIMIT_EXCEEDED',
      alreadyReached: 250,
      newRecipients: 1,
    });
  });
});
