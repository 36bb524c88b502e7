import {
  MAX_MESSAGE_BYTES,
  MalformedOutboundMessageError,
  chunkMessages,
  decodeOutboundMessage,
  encodeOutboundMessage,
  type ChunkRecipient,
  type TemplateChunkMessage,
} from '../../../shared/broadcast/chunk-message';

const base: Omit<TemplateChunkMessage, 'recipients'> = {
  kind: 'template-chunk',
  version: 1,
  jobId: 'pub_abc',
  organizationId: 'org_1',
  chunkIndex: 3,
  wabaId: 'waba_1',
  phoneNumberId: 'pn_1',
  template: { name: 'order_update', language: 'en_US' },
};

/** Recipients with parameters of varying size (including multi-byte characters). */
const recipients = (count: number, size: (index: number) => number = (index) => 20 + ((index * 37) % 400)): ChunkRecipient[] =>
  Array.from({ length: count }, (_, index) => ({
    index: 3000 + index,
    to: `9198${String(index).padStart(8, '0')}`,
    parameters: [`é${'x'.repeat(size(index))}`, `#${index}`],
  }));

const bytesOf = (message: TemplateChunkMessage) => Buffer.byteLength(encodeOutboundMessage(message));

describe('chunkMessages', () => {
  it('keeps a chunk that fits in one message as is', () => {
    const input = recipients(1000, () => 10);
    const messages = chunkMessages(base, input);
    expect(messages).toEqual([{ ...base, recipients: input }]);
    expect(bytesOf(messages[0]!)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
  });

  it('splits by bytes, keeping order and the envelope, never above the limit, and fills each message', () => {
    const maxBytes = 4096;
    const input = recipients(200);
    const messages = chunkMessages(base, input, maxBytes);
    expect(messages.length).toBeGreaterThan(5);
    expect(messages.flatMap((message) => message.recipients)).toEqual(input);
    messages.forEach((message, position) => {
      expect({ ...message, recipients: [] }).toEqual({ ...base, recipients: [] });
      expect(message.recipients.length).toBeGreaterThan(0);
      expect(bytesOf(message)).toBeLessThanOrEqual(maxBytes);
      // Greedy: the next recipient would not have fit.
      const next = messages[position + 1]?.recipients[0];
      if (next) expect(bytesOf({ ...message, recipients: [...message.recipients, next] })).toBeGreaterThanOrEqual(maxBytes);
    });
  });

  it('counts bytes, not characters', () => {
    const maxBytes = 2048;
    const wide: ChunkRecipient[] = Array.from({ length: 40 }, (_, index) => ({
      index,
      to: `91980000${String(index).padStart(4, '0')}`,
      parameters: ['€'.repeat(100)],
    }));
    const messages = chunkMessages(base, wide, maxBytes);
    for (const message of messages) expect(bytesOf(message)).toBeLessThanOrEqual(maxBytes);
    expect(messages.flatMap((message) => message.recipients)).toEqual(wide);
  });

  it('puts a recipient larger than the limit alone in its own message', () => {
    const maxBytes = 2048;
    const input = recipients(9, (index) => (index === 4 ? 5000 : 30));
    const messages = chunkMessages(base, input, maxBytes);
    const alone = messages.find((message) => message.recipients.some(({ index }) => index === 3004))!;
    expect(alone.recipients).toHaveLength(1);
    expect(bytesOf(alone)).toBeGreaterThan(maxBytes);
    for (const message of messages.filter((candidate) => candidate !== alone)) expect(bytesOf(message)).toBeLessThanOrEqual(maxBytes);
    expect(messages.flatMap((message) => message.recipients)).toEqual(input);
  });

  it('makes no message of no recipients', () => {
    expect(chunkMessages(base, [])).toEqual([]);
  });
});

describe('outbound message encoding', () => {
  it('round-trips a chunk message', () => {
    const message = { ...base, recipients: recipients(3) };
    expect(decodeOutboundMessage(encodeOutboundMessage(message))).toEqual(message);
  });

  it('round-trips recipients with content of their own and named values, beside plain ones', () => {
    const message: TemplateChunkMessage = {
      ...base,
      template: { ...base.template, content: { header: { type: 'image', link: 'https://cdn.example.com/p.jpg' } } },
      recipients: [
        { index: 0, to: '919800000001', parameters: ['Ada'], content: { buttons: [{ index: 0, type: 'url', text: 'A-17' }] } },
        { index: 1, to: '919800000002', parameters: ['Bo'] },
        {
          index: 2,
          to: '919800000003',
          parameters: { first_name: 'Cy' },
          content: { header: { type: 'text', text: 'Hi' }, limitedTimeOffer: { expiresAt: '2030-01-01T00:00:00Z' } },
        },
      ],
    };
    expect(decodeOutboundMessage(encodeOutboundMessage(message))).toEqual(message);
  });

  it('carries a recipient time zone as a fifth element (content or null before it); recipients without one keep their old bytes', () => {
    const message: TemplateChunkMessage = {
      ...base,
      recipients: [
        { index: 0, to: '919800000001', parameters: ['Ada'], timeZone: 'Europe/Paris' },
        { index: 1, to: '919800000002', parameters: ['Bo'], content: { buttons: [{ index: 0, type: 'url', text: 'A-17' }] }, timeZone: 'Asia/Tokyo' },
        { index: 2, to: '919800000003', parameters: ['Cy'] },
      ],
    };
    const wire = JSON.parse(encodeOutboundMessage(message)).recipients;
    expect(wire[0]).toEqual([0, '919800000001', ['Ada'], null, 'Europe/Paris']);
    expect(wire[1]).toEqual([1, '919800000002', ['Bo'], { buttons: [{ index: 0, type: 'url', text: 'A-17' }] }, 'Asia/Tokyo']);
    expect(wire[2]).toEqual([2, '919800000003', ['Cy']]);
    expect(decodeOutboundMessage(encodeOutboundMessage(message))).toEqual(message);
    expect(() => decodeOutboundMessage(encodeOutboundMessage(message).replace('"Europe/Paris"', '""'))).toThrow(MalformedOutboundMessageError);
  });

  it('carries each recipient as the compact tuple [index, to, parameters] on the wire', () => {
    const message = { ...base, recipients: [{ index: 7, to: '919800000007', parameters: ['Ada', 'A-7'] }] };
    expect(JSON.parse(encodeOutboundMessage(message)).recipients).toEqual([[7, '919800000007', ['Ada', 'A-7']]]);
    expect(encodeOutboundMessage(message)).not.toContain('"index"');
  });

  it('decodes a body queued (or held for a scheduled job) in the tuple form, recipients as named objects', () => {
    const queued =
      '{"version":1,"jobId":"pub_abc","organizationId":"org_1","chunkIndex":3,"wabaId":"waba_1","phoneNumberId":"pn_1","recipients":[[3000,"919800000000",["Ada"]],[3001,"919800000001",[]]],"kind":"template-chunk","template":{"name":"order_update","language":"en_US"}}';
    expect(decodeOutboundMessage(queued)).toEqual({
      ...base,
      recipients: [
        { index: 3000, to: '919800000000', parameters: ['Ada'] },
        { index: 3001, to: '919800000001', parameters: [] },
      ],
    });
    const freeform =
      '{"version":1,"jobId":"pub_f","organizationId":"org_1","chunkIndex":0,"wabaId":"waba_1","phoneNumberId":"pn_1","recipients":[[0,"919800000009",[]]],"kind":"freeform","body":{"type":"text","text":{"body":"hi"}}}';
    expect(decodeOutboundMessage(freeform).recipients).toEqual([{ index: 0, to: '919800000009', parameters: [] }]);
  });

  it('refuses a recipient that is not a wire tuple', () => {
    expect(() => decodeOutboundMessage(JSON.stringify({ ...base, recipients: [{ index: 0, to: '919800000009', parameters: [] }] }))).toThrow(
      MalformedOutboundMessageError,
    );
    expect(() => decodeOutboundMessage(JSON.stringify({ ...base, recipients: [[-1, '919800000009', []]] }))).toThrow(MalformedOutboundMessageError);
  });

  it('refuses bodies that are not JSON or not a known message', () => {
    expect(() => decodeOutboundMessage('{nope')).toThrow(MalformedOutboundMessageError);
    expect(() => decodeOutboundMessage('{nope')).toThrow('Outbound message is not JSON');
    expect(() => decodeOutboundMessage(JSON.stringify({ ...base, kind: 'other', recipients: [] }))).toThrow('unknown shape');
    expect(() => decodeOutboundMessage(JSON.stringify({ ...base, version: 2, recipients: [] }))).toThrow(MalformedOutboundMessageError);
    expect(() => decodeOutboundMessage(JSON.stringify({ ...base }))).toThrow(MalformedOutboundMessageError);
    expect(() => decodeOutboundMessage(JSON.stringify({ ...base, jobId: '', recipients: [] }))).toThrow(MalformedOutboundMessageError);
    expect(() => decodeOutboundMessage('null')).toThrow(MalformedOutboundMessageError);
  });
});
