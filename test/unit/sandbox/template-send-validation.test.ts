/**
 * The sandbox's checks of template sends against the stored template (template-send-*.ts): one
 * refusal per rule with Meta's code and details, and the accepted shapes of
 * /work/shared/meta/template-components.md (button index as a string and as a number).
 */
import { GraphError } from '../../../sandbox/graph-errors';
import { parseMessageRequest } from '../../../sandbox/message-validation';
import { templateSendSpec, type ParameterFormat } from '../../../sandbox/template-send-spec';
import { checkTemplateSend } from '../../../sandbox/template-send-validation';
import { demoRichTemplates } from '../../../local/demo-rich-templates';

type Component = Record<string, unknown>;

interface Template {
  components: Component[];
  format?: ParameterFormat;
  category?: string;
}

/** Parse (as on the wire) and check a send's components against a template. */
function send(template: Template, components: unknown[] | undefined): void {
  const parsed = parseMessageRequest({
    messaging_product: 'whatsapp',
    to: '15551234567',
    type: 'template',
    template: { name: 't', language: { code: 'en' }, ...(components === undefined ? {} : { components }) },
  });
  if (parsed.kind !== 'send' || parsed.template === undefined) throw new Error('not a template send');
  checkTemplateSend(templateSendSpec(template.components, template.format ?? 'POSITIONAL', template.category ?? 'MARKETING'), parsed.template);
}

function refusal(template: Template, components: unknown[] | undefined): { code: number; status: number; message: string; details?: string } {
  try {
    send(template, components);
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    return {
      code: error.detail.code,
      status: error.httpStatus,
      message: error.detail.message,
      ...(error.detail.error_data ? { details: error.detail.error_data.details } : {}),
    };
  }
  throw new Error('expected the send to be refused');
}

const demo = (name: string): Template => {
  const template = demoRichTemplates().find((candidate) => candidate.name === name)!;
  return { components: template.components, ...(template.parameterFormat ? { format: template.parameterFormat } : {}), category: template.category };
};

const text = (value: string, name?: string) => ({ type: 'text', text: value, ...(name === undefined ? {} : { parameter_name: name }) });
const body = (...parameters: unknown[]) => ({ type: 'body', parameters });
const header = (...parameters: unknown[]) => ({ type: 'header', parameters });
const button = (subType: string, index: number | string, parameters?: unknown[]) => ({
  type: 'button',
  sub_type: subType,
  index,
  ...(parameters === undefined ? {} : { parameters }),
});
const image = (media: Record<string, unknown>) => ({ type: 'image', image: media });
const HTTPS_IMAGE = image({ link: 'https://cdn.example.com/p.jpg' });

const withHeader = (format: string, extra: Component = {}): Template => ({
  components: [
    { type: 'HEADER', format, ...extra },
    { type: 'BODY', text: 'Hello there' },
  ],
});

describe('media headers (IMAGE, VIDEO, DOCUMENT)', () => {
  it.each([
    ['an image link', withHeader('IMAGE'), HTTPS_IMAGE],
    ['a video id', withHeader('VIDEO'), { type: 'video', video: { id: '1602186516975000' } }],
    [
      'a document link with a filename',
      withHeader('DOCUMENT'),
      { type: 'document', document: { link: 'https://cdn.example.com/inv.pdf', filename: 'Invoice-0042.pdf' } },
    ],
  ])('accepts %s (template-components.md §2.1)', (_case, template, parameter) => {
    expect(() => send(template, [header(parameter)])).not.toThrow();
  });

  it('refuses a send without the media header: 132012, received UNKNOWN', () => {
    expect(refusal(withHeader('IMAGE'), undefined)).toEqual({
      code: 132012,
      status: 400,
      message: '(#132012) Parameter format does not match format in the created template',
      details: 'header: Format mismatch, expected IMAGE, received UNKNOWN',
    });
  });

  it('refuses a media parameter of another type: 132012', () => {
    expect(refusal(withHeader('IMAGE'), [header({ type: 'video', video: { id: '1' } })]).details).toBe(
      'header: Format mismatch, expected IMAGE, received VIDEO',
    );
  });

  it('refuses two header parameters: 132000', () => {
    expect(refusal(withHeader('IMAGE'), [header(HTTPS_IMAGE, HTTPS_IMAGE)])).toMatchObject({
      code: 132000,
      details: 'header: number of localizable_params (2) does not match the expected number of params (1)',
    });
  });

  it.each([
    [
      'both id and link',
      image({ id: '1', link: 'https://cdn.example.com/p.jpg' }),
      "Param template['components'][0]['parameters'][0]['image'] must contain exactly one of 'id' or 'link'.",
    ],
    ['neither id nor link', image({ caption: 'x' }), "Param template['components'][0]['parameters'][0]['image'] must contain either 'id' or 'link'."],
    [
      'an http link',
      image({ link: 'http://cdn.example.com/p.jpg' }),
      "Param template['components'][0]['parameters'][0]['image']['link'] must be an https URL.",
    ],
    [
      'a filename on an image',
      image({ id: '1', filename: 'p.jpg' }),
      "Param template['components'][0]['parameters'][0]['image']['filename'] is only allowed on document parameters.",
    ],
  ])('refuses %s: 100 naming the parameter', (_case, parameter, message) => {
    expect(refusal(withHeader('IMAGE'), [header(parameter)])).toEqual({ code: 100, status: 400, message: `(#100) ${message}` });
  });
});

describe('location and text headers', () => {
  it.each([
    ["strings, as in Meta's example", { latitude: '37.4421', longitude: '-122.1615', name: 'Philz Coffee', address: '101 Forest Ave, Palo Alto, CA 94301' }],
    ['numbers', { latitude: 37.4421, longitude: -122.1615 }],
  ])('accepts a location with %s (§2.3)', (_case, location) => {
    expect(() => send(withHeader('LOCATION'), [header({ type: 'location', location })])).not.toThrow();
  });

  it('refuses a LOCATION template sent without its location (132012) or with a bad coordinate (100)', () => {
    expect(refusal(withHeader('LOCATION'), []).details).toBe('header: Format mismatch, expected LOCATION, received UNKNOWN');
    expect(refusal(withHeader('LOCATION'), [header({ type: 'location', location: { latitude: 'north', longitude: 1 } })]).message).toBe(
      "(#100) Param template['components'][0]['parameters'][0]['location']['latitude'] must be a number between -90 and 90.",
    );
    expect(refusal(withHeader('LOCATION'), [header({ type: 'location', location: { latitude: 1 } })]).message).toBe(
      "(#100) The parameter template['components'][0]['parameters'][0]['location']['longitude'] is required.",
    );
  });

  const textHeader = withHeader('TEXT', { text: 'Sale for {{1}}' });

  it('takes exactly one text parameter for a TEXT header with a variable', () => {
    expect(() => send(textHeader, [header(text('Ann'))])).not.toThrow();
    expect(refusal(textHeader, [])).toMatchObject({
      code: 132000,
      details: 'header: number of localizable_params (0) does not match the expected number of params (1)',
    });
    expect(refusal(textHeader, [header(HTTPS_IMAGE)])).toMatchObject({ code: 132012, details: 'header: Format mismatch, expected TEXT, received IMAGE' });
  });

  it('refuses header text over 60 characters once substituted: 132005', () => {
    expect(() => send(textHeader, [header(text('x'.repeat(51)))])).not.toThrow();
    expect(refusal(textHeader, [header(text('x'.repeat(52)))])).toEqual({
      code: 132005,
      status: 400,
      message: '(#132005) Template Hydrated Text Too Long',
      details: 'header: the header text is 61 characters once its parameter is substituted; the limit is 60',
    });
  });

  it('refuses header parameters for a template without a header (or without a header variable): 132000', () => {
    expect(refusal({ components: [{ type: 'BODY', text: 'Hi' }] }, [header(text('x'))])).toMatchObject({
      code: 132000,
      details: 'header: number of localizable_params (1) does not match the expected number of params (0)',
    });
    expect(refusal(withHeader('TEXT', { text: 'Plain' }), [header(text('x'))]).code).toBe(132000);
  });
});

describe('body parameters', () => {
  const positional: Template = { components: [{ type: 'BODY', text: 'Hi {{1}}, you owe {{2}} since {{3}}' }] };

  it('accepts text, currency and date_time parameters (§3.3)', () => {
    const currency = { type: 'currency', currency: { fallback_value: '$100.99', code: 'USD', amount_1000: 100990 } };
    const dateTime = { type: 'date_time', date_time: { fallback_value: 'February 25, 1977' } };
    expect(() => send(positional, [body(text('Ana'), currency, dateTime)])).not.toThrow();
  });

  it('refuses a wrong count (132000), a media parameter (132012) and malformed currency or text (100)', () => {
    expect(refusal(positional, [body(text('a'))])).toMatchObject({
      code: 132000,
      details: 'body: number of localizable_params (1) does not match the expected number of params (3)',
    });
    expect(refusal(positional, [body(text('a'), text('b'), HTTPS_IMAGE)])).toMatchObject({
      code: 132012,
      details: 'body: Format mismatch, expected TEXT, received IMAGE',
    });
    const lowerCode = { type: 'currency', currency: { fallback_value: '$1', code: 'usd', amount_1000: 1000 } };
    expect(refusal(positional, [body(text('a'), text('b'), lowerCode)]).message).toBe(
      "(#100) Param template['components'][0]['parameters'][2]['currency']['code'] must be an ISO 4217 currency code.",
    );
    const noFallback = { type: 'date_time', date_time: {} };
    expect(refusal(positional, [body(text('a'), text('b'), noFallback)]).message).toBe(
      "(#100) The parameter template['components'][0]['parameters'][2]['date_time']['fallback_value'] is required.",
    );
    expect(refusal(positional, [body(text('a'), text('b'), { type: 'text', text: 7 })]).message).toBe(
      "(#100) Param template['components'][0]['parameters'][2]['text'] must be a string.",
    );
  });

  describe('NAMED templates', () => {
    const named = demo('welcome_named');

    it('accepts every name in any order (§3.2)', () => {
      expect(() => send(named, [body(text('Demo Retail', 'store'), text('Ana', 'first_name'))])).not.toThrow();
    });

    it('refuses a missing name with 131008', () => {
      expect(refusal(named, [body(text('Ana', 'first_name'))])).toEqual({
        code: 131008,
        status: 400,
        message: '(#131008) Required parameter is missing',
        details: 'body: Parameter name store is missing',
      });
    });

    it.each([
      ['an unknown name', [text('Ana', 'first_name'), text('x', 'city')], 'body: Parameter name city is not a parameter of the template'],
      [
        'a parameter without parameter_name',
        [text('Ana', 'first_name'), text('x')],
        'body: parameter 2 has no parameter_name; the template uses named parameters',
      ],
      ['a name given twice', [text('Ana', 'first_name'), text('Bo', 'first_name')], 'body: Parameter name first_name is given more than once'],
    ])('refuses %s with (#100) Invalid parameter', (_case, parameters, details) => {
      expect(refusal(named, [body(...parameters)])).toEqual({ code: 100, status: 400, message: '(#100) Invalid parameter', details });
    });
  });

  it('passes a template with no variables and no button values without components', () => {
    expect(() =>
      send(
        {
          components: [
            { type: 'BODY', text: 'Welcome!' },
            {
              type: 'BUTTONS',
              buttons: [
                { type: 'QUICK_REPLY', text: 'Stop' },
                { type: 'URL', text: 'Shop', url: 'https://shop.example' },
              ],
            },
          ],
        },
        undefined,
      ),
    ).not.toThrow();
  });

  it('refuses an unknown component type with 100', () => {
    expect(refusal({ components: [{ type: 'BODY', text: 'Hi' }] }, [{ type: 'footer', parameters: [] }]).message).toBe(
      "(#100) Param template['components'][0]['type'] must be one of {HEADER, BODY, BUTTON, LIMITED_TIME_OFFER, CAROUSEL} - got \"footer\".",
    );
  });
});

describe('buttons', () => {
  const shipped = demo('order_shipped');
  const shippedBody = body(text('Ana'), text('A-1042'));

  it.each([
    ['a string', '0'],
    ['a number', 0],
  ])('accepts the URL button index as %s', (_case, index) => {
    expect(() => send(shipped, [header(HTTPS_IMAGE), shippedBody, button('url', index, [text('A-1042')])])).not.toThrow();
  });

  it('refuses a dynamic URL button without its parameter: 131008', () => {
    const expected = {
      code: 131008,
      status: 400,
      message: '(#131008) Required parameter is missing',
      details: 'buttons: Button at index 0 of type Url requires a parameter',
    };
    expect(refusal(shipped, [header(HTTPS_IMAGE), shippedBody])).toEqual(expected);
    expect(refusal(shipped, [header(HTTPS_IMAGE), shippedBody, button('url', 0, [])])).toEqual(expected);
  });

  it('refuses a URL over 2,000 characters once substituted: 100', () => {
    const base = 'https://shop.example/track/'.length;
    expect(() => send(shipped, [header(HTTPS_IMAGE), shippedBody, button('url', 0, [text('x'.repeat(2000 - base))])])).not.toThrow();
    expect(refusal(shipped, [header(HTTPS_IMAGE), shippedBody, button('url', 0, [text('x'.repeat(2001 - base))])])).toMatchObject({
      code: 100,
      details: 'buttons: the URL of the button at index 0 is 2001 characters after substitution; the limit is 2000',
    });
  });

  it.each([
    ['an index past the buttons', button('url', 3, [text('x')]), 100, 'buttons: the template has no button at index 3 (it has 1)'],
    [
      'a sub_type of another button type',
      button('quick_reply', 0, [{ type: 'payload', payload: 'x' }]),
      132012,
      'buttons: Button at index 0 is of type Url; received a quick_reply parameter',
    ],
  ])('refuses %s', (_case, component, code, details) => {
    expect(refusal(shipped, [header(HTTPS_IMAGE), shippedBody, component])).toMatchObject({ code, details });
  });

  it('refuses an unknown sub_type, a non-numeric index and a repeated index with 100', () => {
    expect(refusal(shipped, [header(HTTPS_IMAGE), shippedBody, button('link', 0, [text('x')])]).message).toContain(
      "Param template['components'][2]['sub_type'] must be one of {URL, QUICK_REPLY, COPY_CODE, FLOW, CATALOG, MPM}",
    );
    expect(refusal(shipped, [header(HTTPS_IMAGE), shippedBody, button('url', 'first', [text('x')])]).message).toContain(
      "Param template['components'][2]['index'] must be a button position",
    );
    expect(refusal(shipped, [header(HTTPS_IMAGE), shippedBody, button('url', 0, [text('x')]), button('url', '0', [text('y')])])).toMatchObject({
      code: 100,
      details: 'buttons: more than one component for the button at index 0',
    });
  });

  describe('copy code and quick reply (summer_coupon)', () => {
    const coupon = demo('summer_coupon');
    const greeting = header(text('Ana'));
    const code = (value: unknown) => button('copy_code', 0, [{ type: 'coupon_code', coupon_code: value }]);

    it('accepts a coupon code of up to 20 characters, with or without a quick-reply payload', () => {
      expect(() => send(coupon, [greeting, code('SUMMER20')])).not.toThrow();
      expect(() => send(coupon, [greeting, code('x'.repeat(20)), button('quick_reply', '1', [{ type: 'payload', payload: 'STOP-PROMO' }])])).not.toThrow();
    });

    it('refuses a missing coupon code with 131008 and a long one with 100', () => {
      const missing = 'buttons: Button at index 0 of type CopyCode requires a parameter';
      expect(refusal(coupon, [greeting])).toMatchObject({ code: 131008, details: missing });
      expect(refusal(coupon, [greeting, button('copy_code', 0, [{ type: 'coupon_code' }])])).toMatchObject({ code: 131008, details: missing });
      expect(refusal(coupon, [greeting, code('x'.repeat(21))])).toMatchObject({
        code: 100,
        details: 'buttons: the coupon code of the button at index 0 is 21 characters; the limit is 20',
      });
    });

    it('refuses a quick-reply payload that is not a string, or not a payload', () => {
      expect(refusal(coupon, [greeting, code('A'), button('quick_reply', 1, [{ type: 'payload', payload: 5 }])]).message).toBe(
        "(#100) Param template['components'][2]['parameters'][0]['payload'] must be a string.",
      );
      expect(refusal(coupon, [greeting, code('A'), button('quick_reply', 1, [{ type: 'text', text: 'x' }])]).message).toContain(
        "['parameters'][0]['type'] must be one of {PAYLOAD}",
      );
    });
  });

  describe('flow, catalog, MPM and OTP buttons', () => {
    const withButton = (type: string, extra: Component = {}, category = 'MARKETING'): Template => ({
      components: [
        { type: 'BODY', text: 'Hi' },
        { type: 'BUTTONS', buttons: [{ type, text: 'Go', ...extra }] },
      ],
      category,
    });
    const action = (value: unknown) => [{ type: 'action', action: value }];

    it("accepts Meta's flow, catalog (sub_type in upper case) and MPM examples (§4)", () => {
      expect(() => send(withButton('FLOW'), [button('flow', '0', action({ flow_token: 'tok-9', flow_action_data: { plan: 'pro' } }))])).not.toThrow();
      expect(() => send(withButton('FLOW'), [])).not.toThrow();
      expect(() => send(withButton('CATALOG'), [button('CATALOG', 0, action({ thumbnail_product_retailer_id: '2lc20305pt' }))])).not.toThrow();
      const sections = [{ title: 'Bundles', product_items: [{ product_retailer_id: 'sku-1' }, { product_retailer_id: 'sku-2' }] }];
      expect(() => send(withButton('MPM'), [button('mpm', 0, action({ thumbnail_product_retailer_id: 'sku-1', sections }))])).not.toThrow();
    });

    it('refuses malformed flow and MPM actions, and an MPM button without one', () => {
      expect(refusal(withButton('FLOW'), [button('flow', 0, action({ flow_action_data: 'pro' }))]).message).toBe(
        "(#100) Param template['components'][0]['parameters'][0]['action']['flow_action_data'] must be a JSON object.",
      );
      expect(refusal(withButton('MPM'), [])).toMatchObject({ code: 131008, details: 'buttons: Button at index 0 of type Mpm requires a parameter' });
      const longTitle = [{ title: 'x'.repeat(25), product_items: [{ product_retailer_id: 'sku-1' }] }];
      expect(refusal(withButton('MPM'), [button('mpm', 0, action({ thumbnail_product_retailer_id: 'sku-1', sections: longTitle }))]).message).toContain(
        "['sections'][0]['title'] must be at most 24 characters long.",
      );
    });

    it('takes an authentication code in the body and the OTP button (sent as url), at most 15 characters', () => {
      const otp: Template = {
        components: [
          { type: 'BODY', add_security_recommendation: true },
          { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE' }] },
        ],
        category: 'AUTHENTICATION',
      };
      expect(() => send(otp, [body(text('482913')), button('url', '0', [text('482913')])])).not.toThrow();
      expect(refusal(otp, [body(text('482913'))])).toMatchObject({ code: 131008, details: 'buttons: Button at index 0 of type Url requires a parameter' });
      expect(refusal(otp, [body(text('1'.repeat(16))), button('url', 0, [text('1'.repeat(16))])])).toMatchObject({
        code: 100,
        details: 'buttons: the code of the button at index 0 is 16 characters; the limit is 15',
      });
    });
  });
});

describe('limited-time offers (flash_deal)', () => {
  const deal = demo('flash_deal');
  const offer = (value: Record<string, unknown>) => ({ type: 'limited_time_offer', parameters: [{ type: 'limited_time_offer', limited_time_offer: value }] });
  const rest = (couponCode = 'FLASH15') => [
    body(text('Ana')),
    button('copy_code', 0, [{ type: 'coupon_code', coupon_code: couponCode }]),
    button('url', 1, [text('flash15')]),
  ];

  it('accepts an expiration in Unix milliseconds with the copy code at 0 and the URL at 1 (§5)', () => {
    expect(() => send(deal, [offer({ expiration_time_ms: 1767225599000 }), ...rest()])).not.toThrow();
  });

  it('refuses a missing expiration when the template has one: 131008', () => {
    expect(refusal(deal, rest())).toMatchObject({ code: 131008, details: 'limited_time_offer: Parameter expiration_time_ms is missing' });
    expect(refusal(deal, [offer({}), ...rest()])).toMatchObject({ code: 131008 });
  });

  it('refuses an expiration that is not an integer, and an offer code over 15 characters, with 100', () => {
    for (const value of ['1767225599000', 1.5]) {
      expect(refusal(deal, [offer({ expiration_time_ms: value }), ...rest()]).message).toBe(
        "(#100) Param template['components'][0]['parameters'][0]['limited_time_offer']['expiration_time_ms'] must be an integer (a Unix time in milliseconds).",
      );
    }
    expect(refusal(deal, [offer({ expiration_time_ms: 1767225599000 }), ...rest('x'.repeat(16))])).toMatchObject({
      code: 100,
      details: 'buttons: the coupon code of the button at index 0 is 16 characters; the limit is 15',
    });
  });

  it('refuses an offer component on a template without one: 100', () => {
    expect(refusal({ components: [{ type: 'BODY', text: 'Hi' }] }, [offer({ expiration_time_ms: 1 })])).toEqual({
      code: 100,
      status: 400,
      message: '(#100) Invalid parameter',
      details: 'limited_time_offer: the template has no LIMITED_TIME_OFFER component',
    });
  });
});

describe('carousels (spring_carousel)', () => {
  const carousel = demo('spring_carousel');
  const card = (index: number | string, components: unknown[]) => ({ card_index: index, components });
  const fullCard = (index: number) => card(index, [header(HTTPS_IMAGE), body(text(`Product ${index}`)), button('url', '0', [text(`sku-${index}`)])]);
  const sendCards = (...cards: unknown[]) => [body(text('Ana')), { type: 'carousel', cards }];

  it('accepts exactly one card per template card, each filled like a template (§6)', () => {
    expect(() => send(carousel, sendCards(fullCard(0), fullCard(1)))).not.toThrow();
    expect(() => send(carousel, sendCards(fullCard(1), fullCard(0)))).not.toThrow();
  });

  it('refuses another number of cards: 132000', () => {
    expect(refusal(carousel, sendCards(fullCard(0)))).toEqual({
      code: 132000,
      status: 400,
      message: '(#132000) Number of parameters does not match the expected number of params',
      details: 'carousel: number of cards (1) does not match the expected number of cards (2)',
    });
    expect(refusal(carousel, [body(text('Ana'))]).details).toBe('carousel: number of cards (0) does not match the expected number of cards (2)');
  });

  it('refuses a card_index out of range or repeated: 100', () => {
    expect(refusal(carousel, sendCards(fullCard(0), fullCard(2))).message).toBe(
      "(#100) Param template['components'][1]['cards'][1]['card_index'] must be an integer from 0 to 1.",
    );
    expect(refusal(carousel, sendCards(fullCard(0), fullCard(0))).message).toBe(
      "(#100) Param template['components'][1]['cards'][1]['card_index'] repeats card 0.",
    );
  });

  it('checks each card against its own definition', () => {
    expect(refusal(carousel, sendCards(fullCard(0), card(1, [body(text('x')), button('url', 0, [text('y')])]))).details).toBe(
      'cards[1].header: Format mismatch, expected IMAGE, received UNKNOWN',
    );
    expect(refusal(carousel, sendCards(card(0, [header(HTTPS_IMAGE), body(text('x'))]), fullCard(1))).details).toBe(
      'cards[0].buttons: Button at index 0 of type Url requires a parameter',
    );
    expect(refusal(carousel, sendCards(card(0, [header(HTTPS_IMAGE), body(), button('url', 0, [text('y')])]), fullCard(1))).details).toBe(
      'cards[0].body: number of localizable_params (0) does not match the expected number of params (1)',
    );
  });
});
