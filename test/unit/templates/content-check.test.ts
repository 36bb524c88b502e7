/**
 * The accept-time check of a send's content against its template: one refusal per rule of
 * issue 24 item 2, each naming the field where the value came from (the broadcast's `header`, a
 * recipient's `data[3].header`), and the content that fits passing.
 */
import { checkNamedParameters, checkTemplateContent, mediaIdsOf, type ContentSource } from '../../../shared/templates/content-check';
import { TemplateContentError } from '../../../shared/templates/errors';
import { effectiveContent, type TemplateContent } from '../../../shared/templates/template-content.schema';
import { requirementsOf } from '../../../shared/templates/template-requirements';

const NOW = new Date('2026-11-27T10:00:00Z');
const orderShipped = requirementsOf({
  components: [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Hi {{1}}, order {{2}}' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'URL', text: 'Track', url: 'https://shop.example/track/{{1}}' },
        { type: 'QUICK_REPLY', text: 'Stop' },
      ],
    },
  ],
});
const coupon = requirementsOf({
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
    { type: 'BODY', text: 'Save' },
    { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', example: 'X' }] },
  ],
});
const offer = requirementsOf({
  components: [
    { type: 'LIMITED_TIME_OFFER', limited_time_offer: { text: 'Deal', has_expiration: true } },
    { type: 'BODY', text: 'x' },
    { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', example: 'X' }] },
  ],
});
const carousel = requirementsOf({
  components: [
    { type: 'BODY', text: 'Picks {{1}}' },
    {
      type: 'CAROUSEL',
      cards: [1, 2].map(() => ({
        components: [
          { type: 'HEADER', format: 'IMAGE' },
          { type: 'BODY', text: '{{1}}' },
          { type: 'BUTTONS', buttons: [{ type: 'URL', url: 'https://p.example/{{1}}' }] },
        ],
      })),
    },
  ],
});

const IMAGE = { type: 'image' as const, link: 'https://cdn.example/p.jpg' };
const TRACK = { index: 0, type: 'url' as const, text: 'A-17' };
const label = 'template t';
const broadcastLevel: ContentSource = { ownPrefix: '', templateLabel: label };

const check =
  (requirements: ReturnType<typeof requirementsOf>, content: TemplateContent, source: ContentSource = broadcastLevel) =>
  () =>
    checkTemplateContent(requirements, content, source, NOW);
const recipient = (own: TemplateContent, broadcast?: TemplateContent): [TemplateContent, ContentSource] => [
  effectiveContent(broadcast, own),
  { own, broadcast, ownPrefix: 'data[3].', templateLabel: label },
];

describe('checkTemplateContent', () => {
  it('passes content that fits, however it is split between the broadcast and the recipient', () => {
    expect(check(orderShipped, { header: IMAGE, buttons: [TRACK] })).not.toThrow();
    expect(
      check(orderShipped, ...recipient({ buttons: [TRACK] }, { header: IMAGE, buttons: [{ index: 1, type: 'quick_reply', payload: 'STOP' }] })),
    ).not.toThrow();
    expect(check(coupon, { header: { type: 'text', text: 'Ada' }, buttons: [{ index: 0, type: 'copy_code', couponCode: 'SUMMER20' }] })).not.toThrow();
  });

  it.each<[string, ReturnType<typeof requirementsOf>, TemplateContent, ContentSource | undefined, string]>([
    ['a media header missing', orderShipped, { buttons: [TRACK] }, undefined, 'header is required: template t has an IMAGE header (give header)'],
    [
      'a recipient without the header',
      orderShipped,
      ...recipient({ buttons: [TRACK] }),
      'data[3].header is required: template t has an IMAGE header (give header at the broadcast level or in data[3].header)',
    ],
    [
      'the wrong media type',
      orderShipped,
      { header: { type: 'video', link: 'https://cdn.example/v.mp4' }, buttons: [TRACK] },
      undefined,
      'header.type must be image: template t has an IMAGE header',
    ],
    [
      "a recipient's wrong header type",
      orderShipped,
      ...recipient({ header: { type: 'text', text: 'x' } }, { buttons: [TRACK] }),
      'data[3].header.type must be image: template t has an IMAGE header',
    ],
    [
      'a dynamic URL button without its text',
      orderShipped,
      { header: IMAGE },
      undefined,
      'buttons must give button 0: it is a URL button of template t that takes a value',
    ],
    [
      'a button the template lacks',
      orderShipped,
      { header: IMAGE, buttons: [TRACK, { index: 4, type: 'quick_reply', payload: 'x' }] },
      undefined,
      'buttons[1].index 4 is not a button of template t (it has buttons 0..1)',
    ],
    [
      'a button of the wrong type',
      orderShipped,
      { header: IMAGE, buttons: [{ index: 0, type: 'copy_code', couponCode: 'X' }] },
      undefined,
      'buttons[0].type copy_code does not match button 0 of template t, a URL button',
    ],
    [
      'a header on a template without a header variable',
      coupon,
      { header: IMAGE, buttons: [{ index: 0, type: 'copy_code', couponCode: 'X' }] },
      undefined,
      'header.type must be text: template t has a TEXT header',
    ],
    [
      'header text longer than the header leaves',
      coupon,
      { header: { type: 'text', text: 'x'.repeat(55) }, buttons: [{ index: 0, type: 'copy_code', couponCode: 'X' }] },
      undefined,
      'header.text must be at most 54 characters',
    ],
    ['a copy code without its code', coupon, { header: { type: 'text', text: 'Ada' } }, undefined, 'buttons must give button 0: it is a COPY_CODE button'],
    [
      'an offer code over 15 characters',
      offer,
      { limitedTimeOffer: { expiresAt: '2026-12-01T00:00:00Z' }, buttons: [{ index: 0, type: 'copy_code', couponCode: 'X'.repeat(16) }] },
      undefined,
      'buttons[0].couponCode must be at most 15 characters for button 0 of template t',
    ],
    [
      'an offer without its expiry',
      offer,
      { buttons: [{ index: 0, type: 'copy_code', couponCode: 'X' }] },
      undefined,
      'limitedTimeOffer is required: template t shows an offer expiry',
    ],
    [
      'an offer expiring before the send',
      offer,
      { limitedTimeOffer: { expiresAt: '2026-11-27T09:59:59Z' }, buttons: [{ index: 0, type: 'copy_code', couponCode: 'X' }] },
      undefined,
      'limitedTimeOffer.expiresAt must be after the time the message is sent (2026-11-27T10:00:00.000Z)',
    ],
    [
      'an offer on another template',
      orderShipped,
      { header: IMAGE, buttons: [TRACK], limitedTimeOffer: { expiresAt: '2026-12-01T00:00:00Z' } },
      undefined,
      'limitedTimeOffer is not expected: template t is not a limited-time-offer template',
    ],
    [
      'cards on a template without a carousel',
      orderShipped,
      { header: IMAGE, buttons: [TRACK], carousel: [{ header: IMAGE }] },
      undefined,
      'carousel is not expected: template t is not a carousel template',
    ],
    [
      'a card count that differs',
      carousel,
      { carousel: [{ header: IMAGE, templateParams: ['a'], buttons: [TRACK] }] },
      undefined,
      'carousel has 1 card; template t has exactly 2, one entry per card in order',
    ],
    [
      'a card without its URL value',
      carousel,
      {
        carousel: [
          { header: IMAGE, templateParams: ['a'], buttons: [TRACK] },
          { header: IMAGE, templateParams: ['b'] },
        ],
      },
      undefined,
      'carousel[1].buttons must give button 0',
    ],
    [
      'a card with the wrong number of values',
      carousel,
      {
        carousel: [
          { header: IMAGE, templateParams: ['a', 'b'], buttons: [TRACK] },
          { header: IMAGE, templateParams: ['b'], buttons: [TRACK] },
        ],
      },
      undefined,
      'carousel[0].templateParams has 2 values; each card of template t needs exactly 1',
    ],
    ['a carousel missing', carousel, {}, undefined, 'carousel is required: template t has a carousel of 2 cards'],
  ])('refuses %s', (_name, requirements, content, source, message) => {
    const run = check(requirements, content, source);
    expect(run).toThrow(TemplateContentError);
    expect(run).toThrow(message);
  });

  it('refuses a value for a URL button without a variable', () => {
    const staticUrl = requirementsOf({
      components: [
        { type: 'BODY', text: 'x' },
        { type: 'BUTTONS', buttons: [{ type: 'URL', url: 'https://shop.example' }] },
      ],
    });
    expect(check(staticUrl, { buttons: [TRACK] })).toThrow('buttons[0] is not expected: button 0 of template t is a URL button without a variable');
  });

  it('refuses a URL suffix longer than what the URL leaves of 2,000 characters', () => {
    const long = { index: 0, type: 'url' as const, text: 'x'.repeat(2000 - 'https://shop.example/track/'.length + 1) };
    expect(check(orderShipped, { header: IMAGE, buttons: [long] })).toThrow('buttons[0].text must be at most 1973 characters for button 0 of template t');
  });
});

describe('checkNamedParameters', () => {
  const named = { format: 'NAMED' as const, names: ['first_name', 'store'] };
  it('takes exactly the names, in any order', () => {
    expect(() => checkNamedParameters(named, { store: 'Demo', first_name: 'Ada' }, 'templateParams', label)).not.toThrow();
  });
  it.each([
    [{ first_name: 'Ada' }, 'data[0].templateParams is missing store: template t needs first_name, store'],
    [{ first_name: 'Ada', store: 'x', city: 'y' }, 'data[0].templateParams.city is not a parameter of template t (it has first_name, store)'],
    [['Ada', 'Demo'], 'data[0].templateParams must be an object of values by name: template t has named parameters (first_name, store)'],
  ])('refuses %j', (values, message) => {
    expect(() => checkNamedParameters(named, values, 'data[0].templateParams', label)).toThrow(message);
  });
  it('refuses values by name for a positional template', () => {
    expect(() => checkNamedParameters({ format: 'POSITIONAL', count: 1 }, { name: 'Ada' }, 'globalTemplateParams', label)).toThrow(
      'globalTemplateParams must be an array: template t has numbered placeholders ({{1}}, {{2}}, …), not named ones',
    );
  });
});

describe('mediaIdsOf', () => {
  it('names every media id with its field: the header and each card header', () => {
    expect(
      mediaIdsOf({ header: { type: 'image', mediaId: '11' }, carousel: [{ header: { type: 'video', mediaId: '12' } }, { header: IMAGE }] }, 'data[2].'),
    ).toEqual([
      { id: '11', path: 'data[2].header.mediaId' },
      { id: '12', path: 'data[2].carousel[0].header.mediaId' },
    ]);
    expect(mediaIdsOf(undefined, '')).toEqual([]);
  });
});
