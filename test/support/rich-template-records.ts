/**
 * Template-list records with `parameters` (issue 24's shape) for the broadcast CLI's unit tests:
 * the demo's rich templates as the design describes them (`order_shipped`, `welcome_named`) and
 * one per remaining kind of header, button, offer and carousel.
 */
import type { TemplateRecord } from '../../client/broadcast-client';

export type RichTemplateRecord = TemplateRecord;

const record = (
  name: string,
  language: string,
  category: 'MARKETING' | 'UTILITY',
  components: Array<Record<string, unknown>>,
  parameters: NonNullable<TemplateRecord['parameters']>,
): RichTemplateRecord => ({
  name,
  language,
  category,
  status: 'APPROVED',
  components,
  parameters,
});

/** IMAGE header, body `Hi {{1}}, your order {{2}} is on its way.`, URL button 0 with a variable. */
export const orderShipped = record(
  'order_shipped',
  'en_US',
  'UTILITY',
  [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Hi {{1}}, your order {{2}} is on its way.' },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track it', url: 'https://demo-retail.example/track/{{1}}' }] },
  ],
  { sendable: true, header: { type: 'IMAGE' }, body: { format: 'POSITIONAL', count: 2 }, buttons: [{ index: 0, type: 'URL', dynamic: true }] },
);

/** Named body parameters `first_name` and `store`, no header, no buttons. */
export const welcomeNamed = record(
  'welcome_named',
  'en_US',
  'MARKETING',
  [{ type: 'BODY', text: 'Welcome {{first_name}}! Your nearest store is {{store}}.' }],
  { sendable: true, body: { format: 'NAMED', names: ['first_name', 'store'] } },
);

/** DOCUMENT header; buttons: COPY_CODE 0, QUICK_REPLY 1, PHONE_NUMBER 2, static URL 3; a limited-time offer with an expiry. */
export const invoiceOffer = record(
  'invoice_offer',
  'en',
  'MARKETING',
  [
    { type: 'HEADER', format: 'DOCUMENT' },
    { type: 'BODY', text: 'Your invoice, {{1}}.' },
  ],
  {
    sendable: true,
    header: { type: 'DOCUMENT' },
    body: { format: 'POSITIONAL', count: 1 },
    buttons: [
      { index: 0, type: 'COPY_CODE', dynamic: true },
      { index: 1, type: 'QUICK_REPLY', dynamic: false },
      { index: 2, type: 'PHONE_NUMBER', dynamic: false },
      { index: 3, type: 'URL', dynamic: false },
    ],
    limitedTimeOffer: { hasExpiration: true },
  },
);

/** LOCATION header, no body parameters. */
export const storeLocation = record(
  'store_location',
  'en',
  'UTILITY',
  [
    { type: 'HEADER', format: 'LOCATION' },
    { type: 'BODY', text: 'Find us here.' },
  ],
  {
    sendable: true,
    header: { type: 'LOCATION' },
    body: { format: 'POSITIONAL', count: 0 },
  },
);

/** TEXT header with a variable, one body parameter. */
export const saleHeadline = record(
  'sale_headline',
  'en',
  'MARKETING',
  [
    { type: 'HEADER', format: 'TEXT', text: '{{1}} sale' },
    { type: 'BODY', text: 'Hi {{1}}' },
  ],
  {
    sendable: true,
    header: { type: 'TEXT', dynamic: true },
    body: { format: 'POSITIONAL', count: 1 },
  },
);

/** A carousel of 2 cards: IMAGE header, one body parameter, URL button 0 with a variable. */
export const productCarousel = record('product_carousel', 'en', 'MARKETING', [{ type: 'BODY', text: 'Picked for you, {{1}}' }, { type: 'CAROUSEL' }], {
  sendable: true,
  body: { format: 'POSITIONAL', count: 1 },
  carousel: { cards: 2, header: { type: 'IMAGE' }, body: { format: 'POSITIONAL', count: 1 }, buttons: [{ index: 0, type: 'URL', dynamic: true }] },
});

/** A template the service says a broadcast cannot fill. */
export const catalogPromo = record('catalog_promo', 'en', 'MARKETING', [{ type: 'BODY', text: 'New arrivals' }], {
  sendable: false,
  unsupported: ['buttons[2]: CATALOG buttons cannot be filled by a broadcast'],
  body: { format: 'POSITIONAL', count: 0 },
});
