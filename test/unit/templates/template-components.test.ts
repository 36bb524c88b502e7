/**
 * Meta's `template.components` for one send (template-components.md §2–§6), built by the one
 * function every template send goes through (`templateMessageBody`): each component kind, named
 * values with `parameter_name`, buttons in index order with Meta's string index, and a recipient's
 * own content winning over the broadcast's.
 */
import { templateMessageBody } from '../../../shared/sending/message-bodies';
import { templateComponents, variableNamesOf } from '../../../shared/templates/template-components';
import { requirementsOf } from '../../../shared/templates/template-requirements';

describe('templateComponents', () => {
  it('header by link or id, document filename, location as strings, text', () => {
    expect(templateComponents([], { header: { type: 'image', link: 'https://cdn.example/p.jpg' } })).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example/p.jpg' } }] },
    ]);
    expect(templateComponents([], { header: { type: 'video', mediaId: '1602186516975000' } })).toEqual([
      { type: 'header', parameters: [{ type: 'video', video: { id: '1602186516975000' } }] },
    ]);
    expect(templateComponents([], { header: { type: 'document', link: 'https://cdn.example/inv.pdf', filename: 'Invoice-0042.pdf' } })).toEqual([
      { type: 'header', parameters: [{ type: 'document', document: { link: 'https://cdn.example/inv.pdf', filename: 'Invoice-0042.pdf' } }] },
    ]);
    expect(
      templateComponents([], { header: { type: 'location', latitude: 37.4421, longitude: -122.1615, name: 'Philz Coffee', address: '101 Forest Ave' } }),
    ).toEqual([
      {
        type: 'header',
        parameters: [{ type: 'location', location: { latitude: '37.4421', longitude: '-122.1615', name: 'Philz Coffee', address: '101 Forest Ave' } }],
      },
    ]);
    expect(templateComponents([], { header: { type: 'text', text: 'Summer Sale' } }, { header: 'sale_name' })).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: 'Summer Sale', parameter_name: 'sale_name' }] },
    ]);
  });

  it('positional and named body values; none leaves the body out', () => {
    expect(templateComponents(['Ana', 'A-1042'], {})).toEqual([
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ana' },
          { type: 'text', text: 'A-1042' },
        ],
      },
    ]);
    expect(templateComponents({ first_name: 'Ana', store: 'Demo' }, {})).toEqual([
      {
        type: 'body',
        parameters: [
          { type: 'text', parameter_name: 'first_name', text: 'Ana' },
          { type: 'text', parameter_name: 'store', text: 'Demo' },
        ],
      },
    ]);
    expect(templateComponents([], {})).toEqual([]);
  });

  it('buttons in index order with the index as a string; the offer before them; a named URL variable', () => {
    const components = templateComponents(
      ['Ada'],
      {
        limitedTimeOffer: { expiresAt: '2026-12-31T23:59:59Z' },
        buttons: [
          { index: 2, type: 'quick_reply', payload: 'STOP' },
          { index: 1, type: 'url', text: 'flash15' },
          { index: 0, type: 'copy_code', couponCode: 'FLASH15' },
        ],
      },
      { buttons: { '1': 'deal' } },
    );
    expect(components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
      {
        type: 'limited_time_offer',
        parameters: [{ type: 'limited_time_offer', limited_time_offer: { expiration_time_ms: Date.parse('2026-12-31T23:59:59Z') } }],
      },
      { type: 'button', sub_type: 'copy_code', index: '0', parameters: [{ type: 'coupon_code', coupon_code: 'FLASH15' }] },
      { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'flash15', parameter_name: 'deal' }] },
      { type: 'button', sub_type: 'quick_reply', index: '2', parameters: [{ type: 'payload', payload: 'STOP' }] },
    ]);
  });

  it('a carousel: one card per entry with its card_index, header, body and buttons', () => {
    const card = (name: string) => ({
      header: { type: 'image' as const, mediaId: '155' },
      templateParams: [name],
      buttons: [{ index: 0, type: 'url' as const, text: name }],
    });
    expect(templateComponents(['Ana'], { carousel: [card('shirt'), card('hat')] })).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] },
      {
        type: 'carousel',
        cards: ['shirt', 'hat'].map((name, cardIndex) => ({
          card_index: cardIndex,
          components: [
            { type: 'header', parameters: [{ type: 'image', image: { id: '155' } }] },
            { type: 'body', parameters: [{ type: 'text', text: name }] },
            { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: name }] },
          ],
        })),
      },
    ]);
  });
});

describe('variableNamesOf', () => {
  it("names a named template's header and URL variables, and nothing for a positional one", () => {
    const named = requirementsOf({
      parameter_format: 'NAMED',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Hi {{name}}' },
        { type: 'BODY', text: '{{x}}' },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY' }, { type: 'URL', url: 'https://x/{{order}}' }] },
      ],
    });
    expect(variableNamesOf(named)).toEqual({ header: 'name', buttons: { '1': 'order' } });
    expect(variableNamesOf(requirementsOf({ components: [{ type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}' }] }))).toBeUndefined();
  });
});

describe('templateMessageBody', () => {
  it("the recipient's own content wins; buttons merge by index; a plain send is as before", () => {
    const template = {
      name: 'order_shipped',
      language: 'en_US',
      content: {
        header: { type: 'image' as const, link: 'https://cdn.example/a.jpg' },
        buttons: [{ index: 1, type: 'quick_reply' as const, payload: 'STOP' }],
      },
    };
    const body = templateMessageBody(template, {
      to: '15550001111',
      parameters: ['Ada', 'A-1'],
      content: { buttons: [{ index: 0, type: 'url', text: 'A-1' }] },
    });
    expect(body.template.components).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example/a.jpg' } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ada' },
          { type: 'text', text: 'A-1' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'A-1' }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'STOP' }] },
    ]);
    expect(templateMessageBody({ name: 'welcome', language: 'en' }, { to: '1555', parameters: [] })).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '1555',
      type: 'template',
      template: { name: 'welcome', language: { code: 'en' } },
    });
  });
});
