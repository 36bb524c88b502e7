/**
 * The demo tenant's templates with every kind of component a broadcast can fill (issue 24), kept
 * apart from local/demo-tenant.ts for size only: that file lists them on Demo Retail's account.
 * Plain data in Meta's GET shape (upper-case types, `example` blocks as Meta echoes them).
 */
import type { SandboxTemplate } from '../sandbox/sandbox-types';

const PICTURE = 'https://scontent.whatsapp.net/v/demo-retail';
/** Stands for the runtime's CLICK_BASE_URL in a template's URL until the seed knows it (`withClickBaseUrl`): a URL Meta's checks take. */
const CLICK_BASE_URL_PLACEHOLDER = 'https://links.example/l';

/** A carousel card as Meta's GET shows it: image header, body `{{1}}`, a URL button with a variable. */
const productCard = (example: string) => ({
  components: [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: [`${PICTURE}/${example}.jpg`] } },
    { type: 'BODY', text: '{{1}}', example: { body_text: [[example.replace('-', ' ')]] } },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'View', url: 'https://shop.example/p/{{1}}', example: [`https://shop.example/p/${example}`] }] },
  ],
});

/**
 * Templates with every kind of component a broadcast can fill (issue 24), in Meta's GET shape
 * (upper-case types, `example` blocks as Meta echoes them): media header + dynamic URL button,
 * text header + coupon code + quick reply, named body parameters, a two-card carousel, and a
 * limited-time offer with a coupon and a URL button.
 */
const RICH_TEMPLATES: readonly SandboxTemplate[] = [
  {
    id: '130000000000005',
    name: 'order_shipped',
    language: 'en_US',
    category: 'UTILITY',
    status: 'APPROVED',
    components: [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: [`${PICTURE}/order-shipped.jpg`] } },
      { type: 'BODY', text: 'Hi {{1}}, your order {{2}} is on its way.', example: { body_text: [['Ada', 'A-1042']] } },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example/track/{{1}}', example: ['https://shop.example/track/A-1042'] }] },
    ],
  },
  {
    id: '130000000000006',
    name: 'summer_coupon',
    language: 'en',
    category: 'MARKETING',
    status: 'APPROVED',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}', example: { header_text: ['Ada'] } },
      { type: 'BODY', text: 'Use the code below for 20% off this summer.' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'COPY_CODE', example: 'SUMMER20' },
          { type: 'QUICK_REPLY', text: 'Stop promotions' },
        ],
      },
    ],
  },
  {
    id: '130000000000007',
    name: 'welcome_named',
    language: 'en_US',
    category: 'UTILITY',
    status: 'APPROVED',
    parameterFormat: 'NAMED',
    components: [
      {
        type: 'BODY',
        text: 'Hi {{first_name}}, welcome to {{store}}!',
        example: {
          body_text_named_params: [
            { param_name: 'first_name', example: 'Ada' },
            { param_name: 'store', example: 'Demo Retail' },
          ],
        },
      },
    ],
  },
  {
    id: '130000000000008',
    name: 'spring_carousel',
    language: 'en',
    category: 'MARKETING',
    status: 'APPROVED',
    components: [
      { type: 'BODY', text: 'Our picks for you, {{1}}', example: { body_text: [['Ada']] } },
      { type: 'CAROUSEL', cards: [productCard('linen-shirt'), productCard('straw-hat')] },
    ],
  },
  {
    id: '130000000000009',
    name: 'flash_deal',
    language: 'en',
    category: 'MARKETING',
    status: 'APPROVED',
    components: [
      { type: 'LIMITED_TIME_OFFER', limited_time_offer: { text: 'Flash deal!', has_expiration: true } },
      { type: 'BODY', text: '{{1}}, this deal ends soon!', example: { body_text: [['Ada']] } },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'COPY_CODE', example: 'FLASH15' },
          { type: 'URL', text: 'Shop now', url: 'https://shop.example/deal/{{1}}', example: ['https://shop.example/deal/flash15'] },
        ],
      },
    ],
  },
  {
    // A tracked link (docs/OUTCOMES.md "Tracked links"): the URL is the platform's redirect, its suffix the recipient's token.
    id: '130000000000012',
    name: 'new_arrivals',
    language: 'en',
    category: 'MARKETING',
    status: 'APPROVED',
    components: [
      { type: 'BODY', text: 'Hi {{1}}, new arrivals are in: have a look before they go.', example: { body_text: [['Ada']] } },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'URL', text: 'See what is new', url: `${CLICK_BASE_URL_PLACEHOLDER}/r/{{1}}`, example: [`${CLICK_BASE_URL_PLACEHOLDER}/r/AQAFcHViX3g`] },
        ],
      },
    ],
  },
];

/** Fresh copies on every call, as the demo accounts are. */
export function demoRichTemplates(): SandboxTemplate[] {
  return structuredClone([...RICH_TEMPLATES]);
}

/**
 * The templates with the runtime's tracked-link base (CLICK_BASE_URL, known once the gateway's port
 * is) in place of the placeholder host; the base's absence leaves that unreachable example host.
 *
 * @example
 * withClickBaseUrl(templates, 'http://127.0.0.1:3000/l'); // new_arrivals' button: 'http://127.0.0.1:3000/l/r/{{1}}'
 */
export function withClickBaseUrl<T extends { components: Array<Record<string, unknown>> }>(templates: readonly T[], clickBaseUrl: string | undefined): T[] {
  const base = clickBaseUrl ?? CLICK_BASE_URL_PLACEHOLDER;
  return templates.map((template) => JSON.parse(JSON.stringify(template).replaceAll(CLICK_BASE_URL_PLACEHOLDER, base)) as T);
}
