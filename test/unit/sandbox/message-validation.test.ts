import { GraphError } from '../../../sandbox/graph-errors';
import { checkTemplateParams, countPlaceholders, expectedTemplateParams, parseMessageRequest } from '../../../sandbox/message-validation';
import { formatDisplayPhoneNumber } from '../../../sandbox/phone-format';

function rejection(body: unknown): { code: number; message: string; status: number } {
  try {
    parseMessageRequest(body);
  } catch (error) {
    if (error instanceof GraphError) return { code: error.detail.code, message: error.detail.message, status: error.httpStatus };
    throw error;
  }
  throw new Error('expected the body to be rejected');
}

const base = { messaging_product: 'whatsapp', to: '15551234567' };

describe('parseMessageRequest', () => {
  it.each([
    ['text', { text: { body: 'hi' } }],
    ['image', { image: { link: 'https://example.com/a.png' } }],
    ['document', { document: { id: '123', filename: 'a.pdf' } }],
    ['audio', { audio: { id: '123' } }],
    ['video', { video: { link: 'https://example.com/a.mp4', caption: 'c' } }],
    ['sticker', { sticker: { id: '123' } }],
    ['location', { location: { latitude: 37.48, longitude: -122.14, name: 'HQ' } }],
    ['location', { location: { latitude: '37.48', longitude: '-122.14' } }],
    ['reaction', { reaction: { message_id: 'wamid.x', emoji: '👍' } }],
    ['contacts', { contacts: [{ name: { formatted_name: 'Jo Doe', first_name: 'Jo' } }] }],
    [
      'interactive',
      {
        interactive: {
          type: 'button',
          body: { text: 'Pick' },
          action: { buttons: [{ type: 'reply', reply: { id: 'y', title: 'Yes' } }] },
        },
      },
    ],
    [
      'interactive',
      {
        interactive: {
          type: 'list',
          body: { text: 'Pick' },
          action: { button: 'Options', sections: [{ title: 'S', rows: [{ id: 'r1', title: 'Row' }] }] },
        },
      },
    ],
    ['template', { template: { name: 't', language: { code: 'en_US' } } }],
  ])('accepts a valid %s message', (type, content) => {
    const parsed = parseMessageRequest({ ...base, type, ...content });
    expect(parsed).toMatchObject({ kind: 'send', type, waId: '15551234567' });
  });

  it('defaults a missing type to text, as Meta does, and strips a leading + for wa_id', () => {
    expect(parseMessageRequest({ ...base, to: '+15551234567', text: { body: 'hi' } })).toEqual({
      kind: 'send',
      to: '+15551234567',
      waId: '15551234567',
      type: 'text',
      template: undefined,
    });
  });

  it('takes recipient (a BSUID) instead of to; to wins when both are there; neither is "to is required"', () => {
    const noTo = { messaging_product: 'whatsapp' };
    expect(parseMessageRequest({ ...noTo, recipient: 'BR.8837261900011', text: { body: 'oi' } })).toEqual({
      kind: 'send',
      recipient: 'BR.8837261900011',
      type: 'text',
      template: undefined,
    });
    expect(parseMessageRequest({ ...base, recipient: 'BR.8837261900011', text: { body: 'oi' } })).toMatchObject({ to: '15551234567', waId: '15551234567' });
    expect(parseMessageRequest({ ...base, recipient: 'BR.8837261900011', text: { body: 'oi' } })).not.toHaveProperty('recipient');
    expect(rejection({ ...noTo, text: { body: 'x' } })).toEqual({ code: 100, message: '(#100) The parameter to is required.', status: 400 });
  });

  it('extracts template name, language and parameter counts', () => {
    const parsed = parseMessageRequest({
      ...base,
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'de', policy: 'deterministic' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: 'x' }] },
          {
            type: 'BODY',
            parameters: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
          { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'p' }] },
        ],
      },
    });
    expect(parsed).toMatchObject({ template: { name: 'order_update', languageCode: 'de', headerParams: 1, bodyParams: 2 } });
  });

  it('recognises a read receipt with typing indicator', () => {
    expect(parseMessageRequest({ messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.abc', typing_indicator: { type: 'text' } })).toEqual({
      kind: 'read',
      messageId: 'wamid.abc',
    });
  });

  it.each([
    ['a non-object body', [1, 2], 'Invalid JSON in request body'],
    ['no messaging_product', { to: '1555', type: 'text', text: { body: 'x' } }, 'The parameter messaging_product is required.'],
    ['a wrong messaging_product', { ...base, messaging_product: 'sms', text: { body: 'x' } }, 'Param messaging_product must be one of {WHATSAPP}'],
    ['no to', { messaging_product: 'whatsapp', text: { body: 'x' } }, 'The parameter to is required.'],
    ['a malformed to', { ...base, to: '555-ABC', text: { body: 'x' } }, 'Param to must be a phone number'],
    ['a group recipient_type', { ...base, recipient_type: 'group', text: { body: 'x' } }, 'Param recipient_type'],
    ['an unknown type', { ...base, type: 'fax' }, 'Param type must be one of {TEXT, TEMPLATE'],
    ['text without body', { ...base, type: 'text', text: {} }, "The parameter text['body'] is required."],
    ['text without text object', { ...base, type: 'text' }, 'The parameter text is required.'],
    ['an over-long text', { ...base, text: { body: 'x'.repeat(4097) } }, 'at most 4096 characters'],
    ['media without id or link', { ...base, type: 'image', image: { caption: 'c' } }, "Param image must contain either 'id' or 'link'."],
    ['location without longitude', { ...base, type: 'location', location: { latitude: 1 } }, "The parameter location['longitude'] is required."],
    [
      'location with a word for latitude',
      { ...base, type: 'location', location: { latitude: 'north', longitude: 1 } },
      "Param location['latitude'] must be a number",
    ],
    [
      'interactive without action',
      { ...base, type: 'interactive', interactive: { type: 'button', body: { text: 'x' } } },
      "The parameter interactive['action'] is required.",
    ],
    [
      'interactive of unknown type',
      { ...base, type: 'interactive', interactive: { type: 'carousel', action: {} } },
      "Param interactive['type'] must be one of",
    ],
    [
      'button reply without title',
      { ...base, type: 'interactive', interactive: { type: 'button', body: { text: 'x' }, action: { buttons: [{ type: 'reply', reply: { id: '1' } }] } } },
      "The parameter interactive['action']['buttons'][0]['reply']['title'] is required.",
    ],
    [
      'list without sections',
      { ...base, type: 'interactive', interactive: { type: 'list', body: { text: 'x' }, action: { button: 'Go' } } },
      "The parameter interactive['action']['sections'] is required.",
    ],
    [
      'contacts without formatted_name',
      { ...base, type: 'contacts', contacts: [{ name: { first_name: 'Jo' } }] },
      "The parameter contacts[0]['name']['formatted_name'] is required.",
    ],
    ['reaction without message_id', { ...base, type: 'reaction', reaction: { emoji: 'x' } }, "The parameter reaction['message_id'] is required."],
    ['template without name', { ...base, type: 'template', template: { language: { code: 'en' } } }, "The parameter template['name'] is required."],
    [
      'template without language code',
      { ...base, type: 'template', template: { name: 't', language: {} } },
      "The parameter template['language']['code'] is required.",
    ],
    [
      'template text parameter without text',
      { ...base, type: 'template', template: { name: 't', language: { code: 'en' }, components: [{ type: 'body', parameters: [{ type: 'text' }] }] } },
      "The parameter template['components'][0]['parameters'][0]['text'] is required.",
    ],
    [
      'template button without index',
      { ...base, type: 'template', template: { name: 't', language: { code: 'en' }, components: [{ type: 'button', sub_type: 'url' }] } },
      "The parameter template['components'][0]['index'] is required.",
    ],
    ['a read receipt without message_id', { messaging_product: 'whatsapp', status: 'read' }, 'The parameter message_id is required.'],
    ['a status other than read', { messaging_product: 'whatsapp', status: 'delivered', message_id: 'w' }, 'Param status must be one of {READ}'],
  ])('rejects %s with code 100', (_case, body, message) => {
    const error = rejection(body);
    expect(error).toMatchObject({ code: 100, status: 400 });
    expect(error.message.startsWith('(#100) ')).toBe(true);
    expect(error.message).toContain(message);
  });
});

describe('template parameters', () => {
  it('counts distinct positional and named placeholders', () => {
    expect(countPlaceholders('Hi {{1}}, order {{2}} for {{1}}')).toBe(2);
    expect(countPlaceholders('Hi {{first_name}}, code {{ code }}')).toBe(2);
    expect(countPlaceholders('No placeholders { {1} }')).toBe(0);
  });

  it('expects params for BODY and TEXT headers only', () => {
    expect(
      expectedTemplateParams([
        { type: 'HEADER', format: 'TEXT', text: 'For {{1}}' },
        { type: 'BODY', text: '{{1}} {{2}}' },
      ]),
    ).toEqual({
      header: 1,
      body: 2,
    });
    expect(
      expectedTemplateParams([
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'x' },
      ]),
    ).toEqual({ body: 0 });
  });

  it('raises 132000 naming the component and both counts', () => {
    const reference = { name: 't', languageCode: 'en', headerParams: 0, bodyParams: 1 };
    expect(() => checkTemplateParams({ body: 2 }, reference)).toThrow(GraphError);
    try {
      checkTemplateParams({ body: 2 }, reference);
    } catch (error) {
      expect((error as GraphError).toBody().error).toMatchObject({
        code: 132000,
        message: '(#132000) Number of parameters does not match the expected number of params',
        error_data: { details: 'body: number of localizable_params (1) does not match the expected number of params (2)' },
      });
    }
    expect(() => checkTemplateParams({ header: 1, body: 1 }, reference)).toThrow('Number of parameters');
    expect(() => checkTemplateParams({ body: 1 }, reference)).not.toThrow();
  });
});

describe('formatDisplayPhoneNumber', () => {
  it.each([
    ['15550001001', '+1 555-000-1001'],
    ['447700900123', '+44 770 090 0123'],
    ['4915123456789', '+49 151 2345 6789'],
    ['861391234567', '+86 139 123 4567'],
  ])('formats %s as %s and strips back to the same digits', (digits, formatted) => {
    expect(formatDisplayPhoneNumber(digits)).toBe(formatted);
    expect(formatDisplayPhoneNumber(digits).replace(/\D/g, '')).toBe(digits);
  });
});
