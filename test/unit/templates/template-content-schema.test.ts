/**
 * The request's rich-template fields, validated on their own (template-content.schema.ts) through
 * the broadcast request's parser: every message names the field, the rule and the recipient's
 * index; a request without the fields parses exactly as before; named values take the fast path.
 */
import { parseTemplateBroadcastRequest } from '../../../shared/broadcast/template-broadcast.schema';
import { decodeOutboundMessage, encodeOutboundMessage, type TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { RequestValidationError } from '../../../shared/http/errors';
import * as v from 'valibot';
import { templateBroadcastSchema } from '../../../shared/broadcast/template-broadcast.schema';

const base = {
  broadcastName: 'Rich',
  fromPhoneNumber: '15550100001',
  templateName: 'order_shipped',
  templateLanguage: 'en_US',
  templateType: 'UTILITY',
  data: [{ countryCode: '44', toPhoneNumber: '7700900001', templateParams: ['Ada', 'A-1'] }],
};
const refusal = (input: unknown): string => {
  try {
    parseTemplateBroadcastRequest(input);
  } catch (error) {
    if (error instanceof RequestValidationError) return error.message;
    throw error;
  }
  throw new Error('accepted');
};

describe('rich-template request fields', () => {
  it('keeps every field at both levels, in the shapes the docs give', () => {
    const request = {
      ...base,
      header: { type: 'image', link: 'https://cdn.example/p.jpg' },
      buttons: [{ index: 1, type: 'quick_reply', payload: 'STOP-PROMO' }],
      limitedTimeOffer: { expiresAt: '2026-12-31T23:59:59Z' },
      data: [
        {
          ...base.data[0],
          buttons: [{ index: 0, type: 'url', text: 'A-17' }],
          header: { type: 'document', mediaId: '1602186516975000', filename: 'Invoice.pdf' },
        },
        {
          countryCode: '44',
          toPhoneNumber: '7700900002',
          templateParams: { first_name: 'Bo' },
          header: { type: 'location', latitude: 51.5, longitude: -0.12, name: 'Shop' },
        },
      ],
    };
    const parsed = parseTemplateBroadcastRequest(request);
    expect(parsed).toEqual(request);
  });

  it.each([
    [{ header: { type: 'image', link: 'http://cdn.example/p.jpg' } }, 'header.link must be an https:// URL: Meta fetches media over HTTPS only'],
    [{ header: { type: 'image' } }, 'header must have exactly one of link and mediaId'],
    [{ header: { type: 'gif', link: 'https://x.example/a.mp4' } }, 'header.type must be image, video, document, text or location'],
    [{ header: { type: 'image', mediaId: 'abc' } }, 'header.mediaId must be a media id as Meta returns it (digits only)'],
    [{ header: { type: 'location', latitude: 91, longitude: 0 } }, 'header.latitude must be between -90 and 90'],
    [{ buttons: [{ index: 0, type: 'copy_code', couponCode: 'X'.repeat(21) }] }, 'buttons[0].couponCode must be at most 20 characters'],
    [
      {
        buttons: [
          { index: 0, type: 'url', text: 'a' },
          { index: 0, type: 'quick_reply', payload: 'b' },
        ],
      },
      'buttons must give each index at most once',
    ],
    [{ buttons: [{ index: 10, type: 'url', text: 'a' }] }, 'buttons[0].index must be at most 9'],
    [{ buttons: [{ index: 0, type: 'flow' }] }, 'buttons[0].type must be url, quick_reply or copy_code'],
    [
      { globalTemplateParams: { 'First Name': 'Ada' } },
      'globalTemplateParams.First Name names must be lowercase letters, digits and underscores (e.g. first_name)',
    ],
    [{ globalTemplateParams: {} }, 'globalTemplateParams must name at least one parameter'],
    [{ limitedTimeOffer: { expiresAt: 'tomorrow' } }, 'limitedTimeOffer.expiresAt must be an ISO 8601 date and time'],
    [
      { carousel: [{ header: { type: 'document', link: 'https://x.example/a.pdf' } }] },
      'carousel[0].header.type must be image or video (a carousel card has a media header)',
    ],
  ])('refuses %j', (fields, message) => {
    expect(refusal({ ...base, ...fields })).toContain(message);
  });

  it('names the recipient of a per-recipient value', () => {
    const data = [base.data[0], { ...base.data[0], toPhoneNumber: '7700900002', buttons: [{ index: 0, type: 'url', text: '' }] }];
    expect(refusal({ ...base, data })).toBe('data[1].buttons[0].text must not be empty');
    const named = [base.data[0], { ...base.data[0], toPhoneNumber: '7700900003', templateParams: { first_name: 'x'.repeat(1025) } }];
    expect(refusal({ ...base, data: named })).toBe('data[1].templateParams.first_name values must be at most 1024 characters');
  });

  it('values by name take the fast path and come out as valibot answers them', () => {
    const data = Array.from({ length: 3 }, (_, index) => ({
      countryCode: '44',
      toPhoneNumber: `770090000${index}`,
      templateParams: { first_name: `N${index}`, store: 'Demo' },
    }));
    expect(parseTemplateBroadcastRequest({ ...base, data }).data).toEqual(data);
  });
});

describe('the API reference examples of each field', () => {
  it.each(['header', 'buttons', 'carousel', 'limitedTimeOffer'] as const)('every example of %s is accepted by the schema that checks it', (field) => {
    const schema = templateBroadcastSchema.entries[field].wrapped;
    const examples = v.getExamples(schema) as unknown[];
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(v.safeParse(schema, example).issues).toBeUndefined();
  });
});

describe('the chunk message codec with rich content', () => {
  const envelope = {
    version: 1 as const,
    jobId: 'pub_1',
    organizationId: 'org_1',
    chunkIndex: 0,
    wabaId: 'w',
    phoneNumberId: 'p',
    kind: 'template-chunk' as const,
  };
  it("carries the shared content in the template and a recipient's own content as a fourth element; plain recipients keep three", () => {
    const message: TemplateChunkMessage = {
      ...envelope,
      template: {
        name: 'order_shipped',
        language: 'en_US',
        content: { header: { type: 'image', link: 'https://cdn.example/p.jpg' } },
        variableNames: { buttons: { '0': 'order' } },
      },
      recipients: [
        { index: 0, to: '447700900001', parameters: ['Ada', 'A-1'] },
        { index: 1, to: '447700900002', parameters: { first_name: 'Bo' }, content: { buttons: [{ index: 0, type: 'url', text: 'B-2' }] } },
      ],
    };
    const encoded = encodeOutboundMessage(message);
    expect(JSON.parse(encoded).recipients).toEqual([
      [0, '447700900001', ['Ada', 'A-1']],
      [1, '447700900002', { first_name: 'Bo' }, { buttons: [{ index: 0, type: 'url', text: 'B-2' }] }],
    ]);
    expect(decodeOutboundMessage(encoded)).toEqual(message);
  });
});
