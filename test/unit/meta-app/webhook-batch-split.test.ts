import { decodeMetaEventMessage } from '../../../shared/meta-app/meta-event-message';
import { splitWebhookBatch } from '../../../shared/meta-app/webhook-batch-split';
import { acceptMetaEvents, MAX_META_EVENT_MESSAGE_BYTES } from '../../../shared/meta-app/webhook-intake';
import { signWebhookBody } from '../../../shared/meta-app/webhook-signature';
import { largeInboundBatch } from '../../support/large-inbound-batch';

const escapedBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;
const metadata = { display_phone_number: '15550001111', phone_number_id: '106540352242922' };

const status = (i: number) => ({
  id: `wamid.${String(i).padStart(40, '0')}`,
  status: i % 3 === 0 ? 'read' : 'delivered',
  timestamp: String(1_700_000_000 + i),
  recipient_id: `4477009${String(i).padStart(5, '0')}`,
  biz_opaque_callback_data: `b1:pub_job:${Math.floor(i / 1000)}:${i % 1000}`,
  pricing: { billable: true, pricing_model: 'PMP', category: 'marketing', type: 'regular' },
});
const inbound = (i: number) => ({
  from: `4477009${String(i).padStart(5, '0')}`,
  id: `wamid.in${i}`,
  timestamp: '1700000000',
  type: 'text',
  text: { body: 'x'.repeat(200) },
});

/** A batch of `entries` entries, each one change with `statuses` statuses and `messages` inbound messages. */
function batchOf(entries: number, statuses: number, messages = 0) {
  let next = 0;
  return {
    object: 'whatsapp_business_account',
    entry: Array.from({ length: entries }, (_, e) => ({
      id: `10229012934039${e}`,
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata,
            ...(messages > 0
              ? { contacts: [{ wa_id: '447700900001', profile: { name: 'Ada' } }], messages: Array.from({ length: messages }, () => inbound(next++)) }
              : {}),
            statuses: Array.from({ length: statuses }, () => status(next++)),
          },
        },
      ],
    })),
  };
}

type Item = Record<string, unknown>;
/** The contacts of a value that name an item (by number or BSUID), indexed once per contacts list. */
const contactIndexes = new WeakMap<object, Map<unknown, Item[]>>();
const contactsNaming = (contacts: unknown, item: Item): Item[] => {
  if (!Array.isArray(contacts)) return [];
  let index = contactIndexes.get(contacts);
  if (!index) {
    index = new Map();
    for (const contact of contacts as Item[])
      for (const id of new Set([contact.wa_id, contact.user_id])) if (id !== undefined) index.set(id, [...(index.get(id) ?? []), contact]);
    contactIndexes.set(contacts, index);
  }
  return [
    ...new Set([item.from, item.from_user_id, item.recipient_id, item.recipient_user_id].flatMap((id) => (id === undefined ? [] : (index!.get(id) ?? [])))),
  ];
};

/** Every status and message of a batch, with the account, number and contacts it came with. */
function itemsOf(batch: { entry: Array<{ id: string; changes: Array<{ field: string; value: Record<string, unknown> }> }> }) {
  return batch.entry.flatMap((entry) =>
    entry.changes.flatMap((change) =>
      ['statuses', 'messages'].flatMap((list) =>
        ((change.value[list] as Item[]) ?? []).map((item) => ({
          account: entry.id,
          field: change.field,
          metadata: change.value.metadata,
          contacts: contactsNaming(change.value.contacts, item),
          item,
        })),
      ),
    ),
  );
}

describe('splitting a signed webhook batch into queue messages', () => {
  const measure = { size: escapedBytes, budget: 256 * 1024 };

  it('leaves a batch that fits as the exact text', () => {
    const text = `${JSON.stringify(batchOf(1, 10))}\n`;
    expect(splitWebhookBatch(text, measure)).toEqual([text]);
  });

  it.each([
    ['one entry of 6,000 statuses', batchOf(1, 6_000)],
    ['3,000 entries of one status', batchOf(3_000, 1)],
    ['entries with inbound messages and statuses', batchOf(40, 100, 60)],
  ])('%s: every part fits, nothing is lost, duplicated or reordered, and each item keeps its context', (_name, batch) => {
    const text = JSON.stringify(batch);
    expect(escapedBytes(text)).toBeGreaterThan(measure.budget);
    const parts = splitWebhookBatch(text, measure)!;
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(escapedBytes(part)).toBeLessThanOrEqual(measure.budget);
    const sorted = (items: ReturnType<typeof itemsOf>) => items.map((item) => JSON.stringify(item)).sort();
    expect(sorted(parts.flatMap((part) => itemsOf(JSON.parse(part))))).toEqual(sorted(itemsOf(batch)));
    expect(parts.every((part) => JSON.parse(part).object === 'whatsapp_business_account')).toBe(true);
  });

  it.each([
    ['with numbers', true],
    ['BSUID only', false],
  ])('one change of 2,500 inbound messages from 2,500 users (0.9 MB, %s): each part carries only the contacts of its messages', (_name, withPhone) => {
    const batch = largeInboundBatch({ messages: 2_500, targetBytes: 900_000, withPhone });
    const text = JSON.stringify(batch);
    expect(text.length).toBeGreaterThan(890_000);
    // The contacts alone are over a queue message: copying them into every part can never fit.
    expect(escapedBytes(JSON.stringify(batch.entry[0]!.changes[0]!.value.contacts))).toBeGreaterThan(measure.budget);
    const parts = splitWebhookBatch(text, measure)!;
    expect(parts).toBeDefined();
    for (const part of parts) expect(escapedBytes(part)).toBeLessThanOrEqual(measure.budget);
    const values = parts.map((part) => JSON.parse(part).entry[0].changes[0].value);
    for (const value of values) expect(value.contacts).toHaveLength(value.messages.length);
    const sorted = (items: ReturnType<typeof itemsOf>) => items.map((item) => JSON.stringify(item)).sort();
    expect(sorted(parts.flatMap((part) => itemsOf(JSON.parse(part))))).toEqual(sorted(itemsOf(batch)));
    expect(values.reduce((sum, value) => sum + value.contacts.length, 0)).toBe(2_500);
  });

  it("keeps a contact no message names with the change's first part (nothing of the batch is dropped)", () => {
    const batch = largeInboundBatch({ messages: 1_000, targetBytes: 500_000 });
    const value = batch.entry[0]!.changes[0]!.value as { contacts: unknown[] };
    const stranger = { profile: { name: 'Nobody' }, user_id: 'BR.nobody' };
    value.contacts.push(stranger);
    const parts = splitWebhookBatch(JSON.stringify(batch), measure)!;
    expect(parts.length).toBeGreaterThan(1);
    const holding = parts.map((part) => JSON.parse(part).entry[0].changes[0].value.contacts.some((contact: Item) => contact.user_id === 'BR.nobody'));
    expect(holding).toEqual(parts.map((_, index) => index === 0));
  });

  it("packs small units into as few parts as fit (no part could take the next part's first entry)", () => {
    const parts = splitWebhookBatch(JSON.stringify(batchOf(3_000, 1)), measure)!;
    const totalBytes = parts.reduce((sum, part) => sum + escapedBytes(part), 0);
    expect(parts.length).toBe(Math.ceil(totalBytes / measure.budget));
  });

  it("gives up (undefined) on a body not of Meta's shape and on one status too large alone", () => {
    expect(splitWebhookBatch(`{"pad":"${'a'.repeat(300_000)}"}`, measure)).toBeUndefined();
    expect(splitWebhookBatch('x'.repeat(300_000), measure)).toBeUndefined();
    const giant = {
      object: 'whatsapp_business_account',
      entry: [{ id: '1', changes: [{ field: 'messages', value: { statuses: [{ ...status(1), note: 'n'.repeat(300_000) }, status(2)] } }] }],
    };
    expect(splitWebhookBatch(JSON.stringify(giant), measure)).toBeUndefined();
  });
});

describe('the intake with a batch larger than a queue message', () => {
  it('a validly signed 1 MB batch is accepted (200) as several messages that hold all its statuses', async () => {
    const batch = batchOf(4, 1_000);
    const raw = JSON.stringify(batch);
    expect(raw.length).toBeGreaterThan(1_000_000);
    const sent: string[] = [];
    const ports = {
      metaApp: { load: async () => ({ appSecret: 'secret', verifyToken: 't' }) },
      metaEvents: { send: async (body: string) => void sent.push(body) },
    };
    const receivedAt = new Date('2026-11-26T12:00:00.000Z');
    const { parts } = await acceptMetaEvents(ports, { rawBody: Buffer.from(raw), signature: signWebhookBody(raw, 'secret'), receivedAt });
    expect(parts).toBe(sent.length);
    expect(sent.every((message) => Buffer.byteLength(message) <= MAX_META_EVENT_MESSAGE_BYTES)).toBe(true);
    const bodies = sent.map((message) => decodeMetaEventMessage(message)!);
    expect(bodies.every((body) => body.receivedAt === receivedAt.toISOString())).toBe(true);
    expect(bodies.flatMap((body) => itemsOf(JSON.parse(body.body))).length).toBe(4_000);
  });
});
