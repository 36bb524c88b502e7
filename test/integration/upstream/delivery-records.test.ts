/**
 * Delivery truth of /upstream sends through the local runtime (gateway → Lambda handler → dynalite
 * → sandbox): every send reaches the Cloud API with our callback data (`u1:<sendId>`) and leaves a
 * send record; a send whose answer never came is UNKNOWN until a status event resolves it through
 * DynamoDbUpstreamDeliveryStore, after which its message id is the organization's to reply to.
 * Events are applied to the adapter directly (the webhook processor is another module's).
 */
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { getServices } from '../../../functions/composition';
import { DynamoDbUpstreamDeliveryStore } from '../../../shared/adapters/dynamodb/dynamodb-upstream-delivery-store';
import { messagingKeys } from '../../../shared/adapters/dynamodb/messaging-table';
import { parseCallbackData } from '../../../shared/delivery/callback-data';
import type { StatusEvent } from '../../../shared/delivery/ports';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { wrapperCall } from './upstream-kit';

let runtime: TestRuntime;
let store: DynamoDbUpstreamDeliveryStore;
let phone: string;
let org: string;

beforeAll(async () => {
  runtime = await startTestRuntime({ environment: { UPSTREAM_TIMEOUT_MS: '300' } });
  const services = getServices();
  store = new DynamoDbUpstreamDeliveryStore(services.clients.dynamoDb, table(), services.clock);
  phone = runtime.demo.phoneNumberIds[0]!;
  org = runtime.demo.organizationId;
}, 60_000);

afterAll(async () => {
  await runtime?.close();
});

const table = () => getServices().config.tableNames.messaging!;
const item = async (key: { pk: string; sk: string }) =>
  (await getServices().clients.dynamoDb.send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }))).Item;
/** Send records of an organization to one recipient (the caller never sees a send id). */
const sendRecordsTo = async (organizationId: string, to: string) => {
  const result = await getServices().clients.dynamoDb.send(
    new ScanCommand({
      TableName: table(),
      FilterExpression: 'begins_with(pk, :prefix) AND #to = :to',
      ExpressionAttributeNames: { '#to': 'to' },
      ExpressionAttributeValues: { ':prefix': `UPSTREAM#${organizationId}#SEND#`, ':to': to },
    }),
  );
  return result.Items ?? [];
};
/** What the sandbox accepted for a recipient, as `GET /_sandbox/messages` lists it. */
const acceptedFor = async (recipient: string) => {
  const response = await fetch(`${runtime.sandboxUrl}/_sandbox/messages?recipient=${recipient}`);
  return ((await response.json()) as { data: Array<{ messageId: string; body: Record<string, unknown> }> }).data;
};
const text = (to: string, extra: Record<string, unknown> = {}) => ({ to, type: 'text', text: { body: 'Hello' }, ...extra });
const sendIdOf = (data: unknown): string => {
  const reference = parseCallbackData(data);
  if (reference?.kind !== 'upstream-send') throw new Error(`not our callback data: ${String(data)}`);
  return reference.sendId;
};
const statusEvent = (messageId: string, stage: StatusEvent['stage'], at: string, sendId?: string): StatusEvent => ({
  messageId,
  stage,
  timestamp: new Date(at),
  recipientId: '15557770000',
  ...(sendId ? { reference: { kind: 'upstream-send' as const, sendId } } : {}),
});

describe('sends carry our callback data and leave send records', () => {
  it("a message reaches the sandbox with u1:<sendId>; the caller's own value is replaced there, kept in the record, and the answer is Meta's", async () => {
    const response = await wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages`, {
      body: text('15557770001', { biz_opaque_callback_data: 'order-4711' }),
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['contacts', 'messages', 'messaging_product']);
    const [accepted] = await acceptedFor('15557770001');
    const sendId = sendIdOf(accepted!.body.biz_opaque_callback_data);
    expect(sendId).toMatch(/^snd_[0-9A-Z]{26}$/);
    expect(accepted!.messageId).toBe(response.body.messages[0].id);

    expect(await item(messagingKeys.upstreamSend(org, sendId))).toEqual(
      expect.objectContaining({
        organizationId: org,
        phoneNumberId: phone,
        to: '15557770001',
        outcome: 'SENT',
        messageId: accepted!.messageId,
        customerCallbackData: 'order-4711',
        createdAt: expect.any(String),
        expiresAt: expect.any(Number),
      }),
    );
    expect(await item(messagingKeys.wrapperId(org, 'MESSAGE', accepted!.messageId))).toEqual(expect.objectContaining({ direction: 'sent', sendId }));
  });

  it('each recipient of a bulk send is a send of its own', async () => {
    const response = await wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages/bulk`, {
      body: {
        template: { name: 'order_update', language: 'en_US' },
        recipients: [
          { to: '15557770002', parameters: ['Ada', 'A-1'] },
          { to: '15557770003', parameters: ['Bob', 'B-2'] },
        ],
      },
    });
    expect(response.body.summary).toEqual({ total: 2, sent: 2, failed: 0, unknown: 0, not_sent: 0 });
    const sendIds = await Promise.all(
      ['15557770002', '15557770003'].map(async (to, index) => {
        const [accepted] = await acceptedFor(to);
        const sendId = sendIdOf(accepted!.body.biz_opaque_callback_data);
        expect(await item(messagingKeys.upstreamSend(org, sendId))).toEqual(
          expect.objectContaining({ to, outcome: 'SENT', messageId: response.body.results[index].message_id }),
        );
        return sendId;
      }),
    );
    expect(new Set(sendIds).size).toBe(2);
  });
});

describe('an unknown outcome resolved by its status events', () => {
  const to = '15557770010';
  let sendId: string;

  beforeAll(async () => {
    // The sandbox holds this one send unanswered: past UPSTREAM_TIMEOUT_MS the wrapper answers 502.
    runtime.sandbox!.configure({ recipientTimeouts: { [to]: { times: 1 } }, timeoutHoldMs: 1_000 });
    const response = await wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages`, { body: text(to, { biz_opaque_callback_data: 'mine' }) });
    expect(response.status).toBe(502);
    const records = await sendRecordsTo(org, to);
    expect(records).toHaveLength(1);
    sendId = String(records[0]!.sendId);
  });

  afterAll(() => runtime.sandbox!.configure({ timeoutHoldMs: 60_000 }));

  it('leaves an UNKNOWN send record without message id', async () => {
    const record = await item(messagingKeys.upstreamSend(org, sendId));
    expect(record).toEqual(expect.objectContaining({ outcome: 'UNKNOWN', customerCallbackData: 'mine', phoneNumberId: phone }));
    expect(record!.messageId).toBeUndefined();
  });

  it("another organization's events reach nothing: not by send id, not by message id", async () => {
    const otherOrg = runtime.demo.otherOrg.organizationId;
    expect(await store.applyEvent(otherOrg, statusEvent('wamid.upstream-unknown-1', 'delivered', '2026-03-01T10:00:00Z', sendId))).toBe('not-found');
    expect(await store.applyEvent(org, statusEvent('wamid.nobody-sent-this', 'delivered', '2026-03-01T10:00:00Z'))).toBe('not-found');
    const record = await item(messagingKeys.upstreamSend(org, sendId));
    expect(record!.deliveredAt).toBeUndefined();
    expect(record!.messageId).toBeUndefined();
  });

  it("an event with its callback data resolves it, and its message id becomes the organization's to reply to", async () => {
    const messageId = 'wamid.upstream-unknown-1';
    const reply = () => wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages`, { body: text(to, { context: { message_id: messageId } }) });
    expect((await reply()).status).toBe(404);

    expect(await store.applyEvent(org, statusEvent(messageId, 'delivered', '2026-03-01T10:00:05Z', sendId))).toBe('applied');
    expect(await item(messagingKeys.upstreamSend(org, sendId))).toEqual(
      expect.objectContaining({ outcome: 'UNKNOWN', messageId, deliveredAt: '2026-03-01T10:00:05.000Z' }),
    );
    expect(await item(messagingKeys.wrapperId(org, 'MESSAGE', messageId))).toEqual(
      expect.objectContaining({ direction: 'sent', sendId, phoneNumberId: phone }),
    );
    expect((await reply()).status).toBe(200);
    // Still nobody else's.
    const other = runtime.demo.otherOrg;
    const foreignReply = await wrapperCall(runtime, 'POST', `/phone-numbers/${other.phoneNumberId}/messages`, {
      token: other.accessToken,
      body: text(to, { context: { message_id: messageId } }),
    });
    expect(foreignReply.status).toBe(404);
  });

  it('later events find it by message id alone; duplicates and late ones keep the first facts', async () => {
    const messageId = 'wamid.upstream-unknown-1';
    expect(await store.applyEvent(org, statusEvent(messageId, 'sent', '2026-03-01T10:00:01Z'))).toBe('applied');
    expect(await store.applyEvent(org, statusEvent(messageId, 'delivered', '2026-03-01T10:09:00Z', sendId))).toBe('applied');
    expect(
      await store.applyEvent(org, { ...statusEvent(messageId, 'failed', '2026-03-01T10:10:00Z'), error: { code: 131026, title: 'Message undeliverable' } }),
    ).toBe('applied');
    expect(await item(messagingKeys.upstreamSend(org, sendId))).toEqual(
      expect.objectContaining({
        sentAt: '2026-03-01T10:00:01.000Z',
        deliveredAt: '2026-03-01T10:00:05.000Z',
        failedAt: '2026-03-01T10:10:00.000Z',
        metaErrorCode: 131026,
        metaErrorTitle: 'Message undeliverable',
      }),
    );
  });
});

describe('received message ids', () => {
  it('a message id recorded as received lets its organization mark it read, and nobody else', async () => {
    const messageId = 'wamid.received-from-customer-1';
    const markRead = (token: string, phoneNumberId: string) =>
      wrapperCall(runtime, 'POST', `/phone-numbers/${phoneNumberId}/messages/read`, { token, body: { message_id: messageId } });
    expect((await markRead(runtime.demo.accessToken, phone)).status).toBe(404);
    await store.recordReceivedMessageId(org, runtime.demo.wabaId, phone, messageId);
    await store.recordReceivedMessageId(org, runtime.demo.wabaId, phone, messageId);
    expect(await item(messagingKeys.wrapperId(org, 'MESSAGE', messageId))).toEqual(expect.objectContaining({ direction: 'received', organizationId: org }));
    expect((await markRead(runtime.demo.accessToken, phone)).status).toBe(200);
    expect((await markRead(runtime.demo.otherOrg.accessToken, runtime.demo.otherOrg.phoneNumberId)).status).toBe(404);
    // A received message has no send: its events (there are none from Meta) find nothing.
    expect(await store.applyEvent(org, statusEvent(messageId, 'read', '2026-03-01T10:00:00Z'))).toBe('not-found');
  });
});
