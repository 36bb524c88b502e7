import fc from 'fast-check';
import { parseTemplateBroadcastRequest, recipientSchema, templateBroadcastSchema } from '../../../shared/broadcast/template-broadcast.schema';
import { RequestValidationError } from '../../../shared/http/errors';
import { parseRequest } from '../../../shared/http/validation';

/** What the schema alone answers: the output, or the error's message and every message. */
function outcomeOf(parse: () => unknown): { output: unknown } | { message: string; messages: readonly string[] } {
  try {
    return { output: parse() };
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    return { message: error.message, messages: error.issues };
  }
}

const valid = (count: number, extra: Record<string, unknown> = {}) => ({
  broadcastName: '  Spring sale ',
  fromPhoneNumber: '919800000001',
  templateName: 'order_update',
  templateLanguage: 'en_US',
  templateType: 'UTILITY',
  globalTemplateParams: ['a', 'b'],
  data: Array.from({ length: count }, (_, index) => ({
    countryCode: '91',
    toPhoneNumber: `98${String(index).padStart(8, '0')}`,
    templateParams: ['x', `${index}`],
  })),
  ...extra,
});

const withRecipient = (index: number, recipient: unknown, extra: Record<string, unknown> = {}) => {
  const body = valid(5, extra);
  (body.data as unknown[])[index] = recipient;
  return body;
};

const cases: Array<[string, unknown]> = [
  ['a valid request', valid(3)],
  ['a valid request of 10,000 recipients', valid(10_000)],
  [
    'recipients without templateParams',
    {
      ...valid(0),
      data: [
        { countryCode: '1', toPhoneNumber: '5550100' },
        { countryCode: '44', toPhoneNumber: '7700900123' },
      ],
    },
  ],
  ['unknown keys in a recipient and the request', withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', nickname: 'x' }, { extra: true })],
  ['an empty templateParams list', withRecipient(2, { countryCode: '91', toPhoneNumber: '9800000999', templateParams: [] })],
  ['scheduledAt and templateId', valid(2, { scheduledAt: '2030-01-01T09:00:00Z', templateId: '123' })],
  ['a countryCode with a plus', withRecipient(3, { countryCode: '+91', toPhoneNumber: '9800000999' })],
  ['a countryCode of 4 digits', withRecipient(3, { countryCode: '9123', toPhoneNumber: '9800000999' })],
  ['an empty countryCode', withRecipient(0, { countryCode: '', toPhoneNumber: '9800000999' })],
  ['a numeric countryCode', withRecipient(0, { countryCode: 91, toPhoneNumber: '9800000999' })],
  ['no toPhoneNumber', withRecipient(4, { countryCode: '91' })],
  ['a toPhoneNumber of 3 digits', withRecipient(4, { countryCode: '91', toPhoneNumber: '123' })],
  ['a toPhoneNumber of 15 digits', withRecipient(4, { countryCode: '91', toPhoneNumber: '123456789012345' })],
  ['a toPhoneNumber with a space', withRecipient(1, { countryCode: '91', toPhoneNumber: '98000 00999' })],
  ['full-width digits', withRecipient(1, { countryCode: '91', toPhoneNumber: '９８００００００９９' })],
  ['templateParams not a list', withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', templateParams: 'x' })],
  ['a templateParams value of 1025 characters', withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', templateParams: ['a'.repeat(1025)] })],
  ['a templateParams value of 1024 characters', withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', templateParams: ['a'.repeat(1024)] })],
  ['a templateParams value that is a number', withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', templateParams: [1] })],
  ['a templateParams value with U+FFFF', withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', templateParams: ['a\uFFFF'] })],
  ['a templateParams value with an unpaired surrogate', withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', templateParams: ['\uD83D'] })],
  ['emoji in a templateParams value', withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', templateParams: ['🎉 ok'] })],
  ['templateParams null', withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', templateParams: null })],
  ['a recipient that is a list', withRecipient(2, ['91', '9800000999'])],
  ['a recipient that is null', withRecipient(2, null)],
  ['a recipient that is a string', withRecipient(2, '919800000999')],
  ['a recipient by userId', withRecipient(2, { userId: 'US.13491208655302741918', templateParams: ['x'] })],
  ['a recipient by parent userId', withRecipient(2, { userId: 'US.ENT.11815799212886844830' })],
  ['a recipient with a userId and a number', withRecipient(2, { userId: 'US.1', countryCode: '91', toPhoneNumber: '9800000999' })],
  ['a recipient with neither address', withRecipient(2, { templateParams: ['x'] })],
  ['a lower-case userId', withRecipient(2, { userId: 'us.1' })],
  ['two bad recipients and a bad envelope', { ...withRecipient(1, { countryCode: 'x', toPhoneNumber: '1' }), broadcastName: '', templateType: 'PROMO' }],
  ['a bad envelope, good recipients', valid(3, { templateType: 'PROMO', fromPhoneNumber: '+91' })],
  ['a bad scheduledAt', valid(3, { scheduledAt: 'tomorrow' })],
  ['an empty list', valid(0)],
  ['10,001 recipients', valid(10_001)],
  ['data not a list', valid(0, { data: { countryCode: '91' } })],
  [
    'no data',
    (() => {
      const { data: _data, ...rest } = valid(1);
      return rest;
    })(),
  ],
  ['a body that is a list', [valid(1)]],
  ['a body that is null', null],
  ['a body that is a string', 'hello'],
  // Rich content of a recipient's own (issue 24): buttons have a plain-code fast check, the rest their schema.
  [
    'own URL buttons, unknown keys in a button',
    withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', buttons: [{ note: 'x', text: 'A-1', type: 'url', index: 0 }] }),
  ],
  [
    'a quick reply and a copy code',
    withRecipient(1, {
      countryCode: '91',
      toPhoneNumber: '9800000999',
      buttons: [
        { index: 1, type: 'quick_reply', payload: 'STOP' },
        { index: 0, type: 'copy_code', couponCode: 'C'.repeat(20) },
      ],
    }),
  ],
  [
    'a copy code of 21 characters',
    withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', buttons: [{ index: 0, type: 'copy_code', couponCode: 'C'.repeat(21) }] }),
  ],
  [
    'a URL suffix of 2,001 characters',
    withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', buttons: [{ index: 0, type: 'url', text: 'u'.repeat(2001) }] }),
  ],
  ['an empty URL suffix', withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', buttons: [{ index: 0, type: 'url', text: '' }] })],
  [
    'a button index given twice',
    withRecipient(1, {
      countryCode: '91',
      toPhoneNumber: '9800000999',
      buttons: [
        { index: 0, type: 'url', text: 'a' },
        { index: 0, type: 'quick_reply', payload: 'b' },
      ],
    }),
  ],
  [
    'a button index of 10, and of 1.5',
    withRecipient(1, {
      countryCode: '91',
      toPhoneNumber: '9800000999',
      buttons: [
        { index: 10, type: 'url', text: 'a' },
        { index: 1.5, type: 'url', text: 'a' },
      ],
    }),
  ],
  ['a button index as a string', withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', buttons: [{ index: '0', type: 'url', text: 'a' }] })],
  [
    'a button of an unknown type',
    withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', buttons: [{ index: 0, type: 'phone_number', text: 'a' }] }),
  ],
  ['a URL button given a payload', withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', buttons: [{ index: 0, type: 'url', payload: 'a' }] })],
  ['an empty buttons list', withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', buttons: [] })],
  [
    '11 buttons',
    withRecipient(1, {
      countryCode: '91',
      toPhoneNumber: '9800000999',
      buttons: Array.from({ length: 11 }, (_, index) => ({ index, type: 'url', text: 'a' })),
    }),
  ],
  [
    'a header, named values and an offer of its own',
    withRecipient(1, {
      countryCode: '91',
      toPhoneNumber: '9800000999',
      header: { type: 'image', link: 'https://cdn.example.com/p.jpg' },
      templateParams: { first_name: 'Ada' },
      limitedTimeOffer: { expiresAt: '2030-01-01T00:00:00Z' },
    }),
  ],
  [
    'an http:// header link',
    withRecipient(1, { countryCode: '91', toPhoneNumber: '9800000999', header: { type: 'image', link: 'http://cdn.example.com/p.jpg' } }),
  ],
];

describe('parseTemplateBroadcastRequest', () => {
  it.each(cases)('answers exactly as templateBroadcastSchema for %s', (_label, body) => {
    const expected = outcomeOf(() => parseRequest(templateBroadcastSchema, body));
    const actual = outcomeOf(() => parseTemplateBroadcastRequest(body));
    expect(actual).toStrictEqual(expected);
    // The payload hash of an Idempotency-Key serialises the parsed request: same keys, same order.
    if ('output' in expected) expect(JSON.stringify((actual as { output: unknown }).output)).toBe(JSON.stringify(expected.output));
  });

  it('names the first broken rule with its field', () => {
    expect(() => parseTemplateBroadcastRequest(withRecipient(3, { countryCode: '91', toPhoneNumber: '98-00' }))).toThrow(
      new RequestValidationError('data[3].toPhoneNumber must contain digits only (no +, spaces or punctuation)'),
    );
  });

  it("does not hand back the caller's objects: the recipients are copies", () => {
    const body = valid(2);
    const parsed = parseTemplateBroadcastRequest(body);
    expect(parsed.data[0]).not.toBe(body.data[0]);
    expect(parsed.data[0]!.templateParams).not.toBe(body.data[0]!.templateParams);
  });
});

/* ------------------------------------------------------------------ generated requests */

const digitString = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });
/** Mostly values that pass, then near misses, then anything at all. */
const countryCode = fc.oneof(
  { weight: 8, arbitrary: digitString(1, 3) },
  { weight: 2, arbitrary: digitString(0, 5) },
  { weight: 1, arbitrary: fc.constantFrom('+91', '９１', ' 91', '9 1', '') },
  { weight: 1, arbitrary: fc.anything() },
);
const toPhoneNumber = fc.oneof(
  { weight: 8, arbitrary: digitString(4, 14) },
  { weight: 2, arbitrary: digitString(0, 16) },
  { weight: 1, arbitrary: fc.constantFrom('98-00', '９８００００００９９', '0000', '98000 00999') },
  { weight: 1, arbitrary: fc.anything() },
);
const bsuidId = fc.string({ unit: fc.constantFrom(...'0123456789abcXYZ'), minLength: 1, maxLength: 128 });
/** Business-scoped user ids (issue 25): valid ones, parent ids, near misses (lower case, no dot, too long), anything. */
const userId = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(fc.constantFrom('US', 'BR', 'IN'), fc.boolean(), bsuidId).map(([country, parent, id]) => `${country}.${parent ? 'ENT.' : ''}${id}`),
  },
  { weight: 2, arbitrary: fc.constantFrom('us.1', 'US1', 'US.', `US.${'1'.repeat(129)}`, 'US.1.2', 'US.1 ', '447700900123') },
  { weight: 1, arbitrary: fc.anything() },
);
const parameter = fc.oneof(
  { weight: 8, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('a'.repeat(1024), 'a'.repeat(1025), 'a\uFFFF', '\uD83D', '🎉 ok', '') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
  { weight: 1, arbitrary: fc.anything() },
);
const templateParams = fc.oneof(
  { weight: 6, arbitrary: fc.array(parameter, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom(undefined, null, 'x', {}) },
  { weight: 1, arbitrary: fc.anything() },
);
/** A value that passes, or one of its near misses: lengths at the limits, unsendable characters, other types. */
const buttonText = fc.oneof(
  { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      'c'.repeat(20),
      'c'.repeat(21),
      'p'.repeat(1024),
      'p'.repeat(1025),
      'u'.repeat(2000),
      'u'.repeat(2001),
      'a\uFFFE',
      '\uDC00',
      '🎉',
    ),
  },
  { weight: 1, arbitrary: fc.anything() },
);
/** Mostly indexes 0..9 (the rest just outside), each type with its own value's key. */
const BUTTON_KINDS = [
  ['url', 'text'],
  ['quick_reply', 'payload'],
  ['copy_code', 'couponCode'],
] as const;
const wellFormedButton = fc
  .tuple(
    fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 9 }) }, { weight: 1, arbitrary: fc.constantFrom(-1, 10, 1.5, -0) }),
    fc.constantFrom(...BUTTON_KINDS),
    buttonText,
  )
  .map(([index, [type, key], value]) => ({ index, type, [key]: value }));
const button = fc.oneof(
  { weight: 6, arbitrary: wellFormedButton },
  {
    weight: 1,
    arbitrary: fc
      .tuple(wellFormedButton, fc.dictionary(fc.string({ maxLength: 6 }), fc.anything(), { maxKeys: 2 }))
      .map(([known, extra]) => ({ ...extra, ...known })),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        index: fc.oneof(fc.integer({ min: -1, max: 10 }), fc.constantFrom(1.5, Number.NaN, -0, '0', Number.POSITIVE_INFINITY, null)),
        type: fc.constantFrom('url', 'quick_reply', 'copy_code', 'URL', 'phone_number', undefined),
        text: buttonText,
        payload: buttonText,
        couponCode: buttonText,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.anything() },
);
const buttons = fc.oneof(
  { weight: 6, arbitrary: fc.array(button, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.array(wellFormedButton, { minLength: 9, maxLength: 11 }) },
  { weight: 1, arbitrary: fc.anything() },
);
const header = fc.oneof(
  fc.constantFrom(
    { type: 'image', link: 'https://cdn.example.com/p.jpg' },
    { type: 'image', link: 'http://cdn.example.com/p.jpg' },
    { type: 'document', mediaId: '42', filename: 'a.pdf' },
    { type: 'text', text: 'Hi' },
    { type: 'location', latitude: 1, longitude: 2 },
    { type: 'gif' },
  ),
  fc.anything(),
);
const namedParams = fc.dictionary(fc.constantFrom('first_name', 'store', 'Bad-Name', '_x'), parameter, { maxKeys: 3 });
const limitedTimeOffer = fc.oneof(fc.constantFrom({ expiresAt: '2030-01-01T00:00:00Z' }, { expiresAt: 'soon' }, {}), fc.anything());
const knownKeys = Object.keys(recipientSchema.entries);
/** Fields the schema does not know: valibot drops them, and so must the fast path. */
const extraFields = fc.dictionary(
  fc.string({ maxLength: 10 }).filter((key) => !knownKeys.includes(key)),
  fc.anything(),
  { maxKeys: 3 },
);
/** Every known field may be missing; extra fields come first or last. */
const generatedRecipient = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .tuple(
        fc.record(
          {
            countryCode,
            toPhoneNumber,
            templateParams: fc.oneof({ weight: 4, arbitrary: templateParams }, { weight: 1, arbitrary: namedParams }),
            buttons,
            header,
            limitedTimeOffer,
          },
          { requiredKeys: [] },
        ),
        extraFields,
        fc.boolean(),
      )
      .map(([known, extra, extraFirst]) => (extraFirst ? { ...extra, ...known } : { ...known, ...extra })),
  },
  {
    // By business-scoped user id: mostly alone, sometimes with a number's fields (both addresses: refused).
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.oneof(
          { weight: 3, arbitrary: fc.record({ userId, templateParams }, { requiredKeys: ['userId'] }) },
          { weight: 1, arbitrary: fc.record({ userId, countryCode, toPhoneNumber, templateParams }, { requiredKeys: [] }) },
        ),
        extraFields,
        fc.boolean(),
      )
      .map(([known, extra, extraFirst]) => (extraFirst ? { ...extra, ...known } : { ...known, ...extra })),
  },
  { weight: 1, arbitrary: fc.anything() },
);
const envelopeChange = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, unknown>>({ templateType: 'PROMO' }, { fromPhoneNumber: '+91' }, { broadcastName: '' }, { scheduledAt: 'soon' }),
  },
  { weight: 1, arbitrary: fc.constantFrom<Record<string, unknown>>({ globalTemplateParams: undefined }, { templateId: '42' }, { unknownField: [1] }) },
);

describe('parseTemplateBroadcastRequest on generated requests', () => {
  it('answers exactly as templateBroadcastSchema (value, key order, message and every message), extra and missing fields and rich content included', () => {
    fc.assert(
      fc.property(fc.array(generatedRecipient, { minLength: 1, maxLength: 5 }), envelopeChange, (data, change) => {
        const body = { ...valid(0), ...change, data };
        const expected = outcomeOf(() => parseRequest(templateBroadcastSchema, body));
        const actual = outcomeOf(() => parseTemplateBroadcastRequest(body));
        expect(actual).toStrictEqual(expected);
        if ('output' in expected) expect(JSON.stringify((actual as { output: unknown }).output)).toBe(JSON.stringify(expected.output));
      }),
      { numRuns: 1000 },
    );
  });

  it('answers exactly as the schema for generated buttons of otherwise valid recipients (the buttons fast check)', () => {
    fc.assert(
      fc.property(fc.array(buttons, { minLength: 1, maxLength: 4 }), (lists) => {
        const body = { ...valid(0), data: lists.map((list, index) => ({ countryCode: '91', toPhoneNumber: `980000000${index}`, buttons: list })) };
        const expected = outcomeOf(() => parseRequest(templateBroadcastSchema, body));
        const actual = outcomeOf(() => parseTemplateBroadcastRequest(body));
        expect(actual).toStrictEqual(expected);
        if ('output' in expected) expect(JSON.stringify((actual as { output: unknown }).output)).toBe(JSON.stringify(expected.output));
      }),
      { numRuns: 2000 },
    );
  });
});
