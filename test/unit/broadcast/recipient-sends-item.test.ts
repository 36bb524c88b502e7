import { deflateRawSync } from 'node:zlib';
import { decodeRecipients, recipientsItem } from '../../../shared/adapters/dynamodb/messaging-job-items';
import { MAX_SENDS_BYTES } from '../../../shared/adapters/dynamodb/messaging-recipient-sends';
import { MalformedMessagingItemError } from '../../../shared/adapters/dynamodb/messaging-table';
import type { JobRecipient } from '../../../shared/broadcast/ports';

const recipient = (index: number, send?: JobRecipient['send']): JobRecipient => ({
  index,
  countryCode: '44',
  toPhoneNumber: `77009000${String(index).padStart(2, '0')}`,
  ...(send ? { send } : {}),
});

describe("a chunk's recipients item keeps each recipient's values for follow-ups", () => {
  it('gives back every recipient with its parameters and own content', () => {
    const recipients = [
      recipient(0, { parameters: ['Ada', 'A-1'] }),
      recipient(1, {
        parameters: { name: 'Grace' },
        content: { header: { type: 'image', link: 'https://cdn.example.com/1.jpg' }, buttons: [{ index: 0, type: 'url', text: 'B-2' }] },
      }),
      { index: 2, countryCode: '', toPhoneNumber: '', userId: 'US.13491208655302741918', send: { parameters: [] } },
    ];
    const item = recipientsItem('pub_1', 0, recipients, 1);
    expect(item.sendsDeflated).toBeInstanceOf(Uint8Array);
    expect(decodeRecipients(item)).toEqual(recipients);
  });

  it('keeps no values for jobs that have none (free-form, earlier sends) or when they would not fit the item', () => {
    expect(recipientsItem('msg_1', 0, [recipient(0)], 1)).not.toHaveProperty('sendsDeflated');
    // Random values do not compress: 1,000 recipients of 10 random 60-character values are well past the bound.
    const random = () => Array.from({ length: 60 }, () => String.fromCharCode(33 + Math.floor(Math.random() * 90))).join('');
    const large = Array.from({ length: 1000 }, (_, index) => recipient(index, { parameters: Array.from({ length: 10 }, random) }));
    const item = recipientsItem('pub_2', 0, large, 1);
    expect(item).not.toHaveProperty('sendsDeflated');
    expect(decodeRecipients(item)[5]).toEqual(recipient(5));
    expect(MAX_SENDS_BYTES).toBeLessThan(400_000);
  });

  it('refuses stored values that do not match the recipients', () => {
    const item = {
      ...recipientsItem('pub_3', 0, [recipient(0), recipient(1)], 1),
      sendsDeflated: new Uint8Array(deflateRawSync(JSON.stringify([[['only one']]]))),
    };
    expect(() => decodeRecipients(item)).toThrow(MalformedMessagingItemError);
  });
});
