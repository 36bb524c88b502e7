/**
 * Rich templates (issue 24): buttons (URL, quick reply, copy code; a recipient's buttons merge with
 * the broadcast's by index), named body parameters, a carousel and a limited-time offer, through
 * the local runtime and the Cloud API sandbox. As in rich-templates.test.ts: the broadcast gives
 * each value, a recipient its own, and the sandbox accepted exactly the expected components once
 * per recipient.
 */
import type { TestRuntime } from '../../support/local-runtime';
import { useKitRuntime } from './broadcast-test-kit';
import {
  body,
  copyCode,
  header,
  namedBody,
  numberOf,
  quickReply,
  richBroadcast,
  richRecipients,
  uploadImage,
  urlButton,
  deliverBroadcast,
} from './rich-templates-kit';

jest.setTimeout(60_000);

describe('rich templates: buttons, named parameters, carousel, limited-time offer', () => {
  let runtime: TestRuntime;
  let ownMedia: string;

  useKitRuntime(async (started) => {
    runtime = started;
    ownMedia = await uploadImage(runtime);
  });

  const deliver = (broadcast: Record<string, unknown>) => deliverBroadcast(runtime, broadcast);

  it("URL button: the broadcast's suffix, and a recipient's own instead", async () => {
    const data = richRecipients(2, 9_730_000_000, (index) => ({
      templateParams: [`Ada${index}`, `A-${index}`],
      ...(index === 1 && { buttons: [{ index: 0, type: 'url', text: 'own-17' }] }),
    }));
    const image = { type: 'image', link: 'https://cdn.example.com/p.jpg' };
    const sent = await deliver(richBroadcast('order_shipped', data, { header: image, buttons: [{ index: 0, type: 'url', text: 'all-1' }] }));

    const expectedHeader = header({ type: 'image', image: { link: 'https://cdn.example.com/p.jpg' } });
    expect(sent.get(numberOf(data[0]!))).toEqual([expectedHeader, body('Ada0', 'A-0'), urlButton(0, 'all-1')]);
    expect(sent.get(numberOf(data[1]!))).toEqual([expectedHeader, body('Ada1', 'A-1'), urlButton(0, 'own-17')]);
  });

  it("copy code and quick reply: the broadcast's buttons, merged by index with a recipient's own", async () => {
    const data = richRecipients(3, 9_730_000_100, (index) => {
      if (index === 1) return { buttons: [{ index: 0, type: 'copy_code', couponCode: 'VIP30' }] };
      if (index === 2) return { buttons: [{ index: 1, type: 'quick_reply', payload: 'STOP-2' }] };
      return {};
    });
    const buttons = [
      { index: 0, type: 'copy_code', couponCode: 'SUMMER20' },
      { index: 1, type: 'quick_reply', payload: 'STOP-PROMO' },
    ];
    const sent = await deliver(richBroadcast('summer_coupon', data, { header: { type: 'text', text: 'friend' }, buttons }));

    const hello = header({ type: 'text', text: 'friend' });
    expect(sent.get(numberOf(data[0]!))).toEqual([hello, copyCode(0, 'SUMMER20'), quickReply(1, 'STOP-PROMO')]);
    expect(sent.get(numberOf(data[1]!))).toEqual([hello, copyCode(0, 'VIP30'), quickReply(1, 'STOP-PROMO')]);
    expect(sent.get(numberOf(data[2]!))).toEqual([hello, copyCode(0, 'SUMMER20'), quickReply(1, 'STOP-2')]);
  });

  it("named parameters: the broadcast's object, a recipient's own object (any order), each value with its parameter_name", async () => {
    const data = richRecipients(2, 9_730_000_200, (index) => (index === 1 ? { templateParams: { store: 'Demo Outlet', first_name: 'Ada' } } : {}));
    const sent = await deliver(richBroadcast('welcome_named', data, { globalTemplateParams: { first_name: 'friend', store: 'Demo Retail' } }));

    expect(sent.get(numberOf(data[0]!))).toEqual([namedBody({ first_name: 'friend', store: 'Demo Retail' })]);
    expect(sent.get(numberOf(data[1]!))).toEqual([namedBody({ store: 'Demo Outlet', first_name: 'Ada' })]);
  });

  it("carousel: one entry per card in order (header by link or uploaded id, card body, card URL button); a recipient's own cards", async () => {
    const card = (picture: Record<string, unknown>, name: string, slug: string) => ({
      header: { type: 'image', ...picture },
      templateParams: [name],
      buttons: [{ index: 0, type: 'url', text: slug }],
    });
    const data = richRecipients(2, 9_730_000_300, (index) =>
      index === 1
        ? {
            templateParams: ['Ada'],
            carousel: [card({ link: 'https://cdn.example.com/a.jpg' }, 'Apron', 'apron'), card({ link: 'https://cdn.example.com/b.jpg' }, 'Boots', 'boots')],
          }
        : {},
    );
    const carousel = [card({ link: 'https://cdn.example.com/linen.jpg' }, 'Linen shirt', 'linen-shirt'), card({ mediaId: ownMedia }, 'Straw hat', 'straw-hat')];
    const sent = await deliver(richBroadcast('spring_carousel', data, { globalTemplateParams: ['friend'], carousel }));

    const sentCard = (cardIndex: number, image: Record<string, unknown>, name: string, slug: string) => ({
      card_index: cardIndex,
      components: [header({ type: 'image', image }), body(name), urlButton(0, slug)],
    });
    expect(sent.get(numberOf(data[0]!))).toEqual([
      body('friend'),
      {
        type: 'carousel',
        cards: [
          sentCard(0, { link: 'https://cdn.example.com/linen.jpg' }, 'Linen shirt', 'linen-shirt'),
          sentCard(1, { id: ownMedia }, 'Straw hat', 'straw-hat'),
        ],
      },
    ]);
    expect(sent.get(numberOf(data[1]!))).toEqual([
      body('Ada'),
      {
        type: 'carousel',
        cards: [
          sentCard(0, { link: 'https://cdn.example.com/a.jpg' }, 'Apron', 'apron'),
          sentCard(1, { link: 'https://cdn.example.com/b.jpg' }, 'Boots', 'boots'),
        ],
      },
    ]);
  });

  it("limited-time offer: expiry as Unix milliseconds, coupon and URL button; a recipient's own expiry and URL merged with the broadcast's coupon", async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const ownExpiry = '2030-06-30T21:59:59+02:00';
    const data = richRecipients(2, 9_730_000_400, (index) =>
      index === 1 ? { templateParams: ['Ada'], limitedTimeOffer: { expiresAt: ownExpiry }, buttons: [{ index: 1, type: 'url', text: 'ada-deal' }] } : {},
    );
    const buttons = [
      { index: 0, type: 'copy_code', couponCode: 'FLASH15' },
      { index: 1, type: 'url', text: 'flash15' },
    ];
    const sent = await deliver(richBroadcast('flash_deal', data, { globalTemplateParams: ['friend'], limitedTimeOffer: { expiresAt }, buttons }));

    const offer = (milliseconds: number) => ({
      type: 'limited_time_offer',
      parameters: [{ type: 'limited_time_offer', limited_time_offer: { expiration_time_ms: milliseconds } }],
    });
    expect(sent.get(numberOf(data[0]!))).toEqual([body('friend'), offer(Date.parse(expiresAt)), copyCode(0, 'FLASH15'), urlButton(1, 'flash15')]);
    expect(sent.get(numberOf(data[1]!))).toEqual([body('Ada'), offer(Date.UTC(2030, 5, 30, 19, 59, 59)), copyCode(0, 'FLASH15'), urlButton(1, 'ada-deal')]);
  });

  it('a quick reply takes an optional payload: summer_coupon sent without one has no quick_reply component', async () => {
    const data = richRecipients(1, 9_730_000_500, () => ({
      header: { type: 'text', text: 'Bo' },
      buttons: [{ index: 0, type: 'copy_code', couponCode: 'BO10' }],
    }));
    const sent = await deliver(richBroadcast('summer_coupon', data));
    expect(sent.get(numberOf(data[0]!))).toEqual([header({ type: 'text', text: 'Bo' }), copyCode(0, 'BO10')]);
  });
});
