import { metaLinkClicksOf, recordMetaLinkClicks } from '../../../shared/clicks/meta-link-clicks';
import type { ClickReference } from '../../../shared/clicks/click-token';
import type { CustomerEvent } from '../../../shared/customer-events/ports';

const value = {
  messaging_product: 'whatsapp',
  metadata: { display_phone_number: '15550001111', phone_number_id: '120000000000001' },
  user_actions: [
    {
      action_type: 'marketing_messages_link_click',
      timestamp: '1764583200',
      marketing_messages_link_click_data: { click_component: 'cta', click_id: 'seen-by-redirect' },
    },
    {
      action_type: 'marketing_messages_link_click',
      timestamp: 1764583260,
      marketing_messages_link_click_data: { click_component: 'body', product_id: 'sku-9', tracking_token: 'tt' },
    },
    { action_type: 'something_else', timestamp: '1764583300' },
    { action_type: 'marketing_messages_link_click', timestamp: 'soon', marketing_messages_link_click_data: { click_component: 'cta' } },
  ],
};

describe("Meta's link-click events", () => {
  it('parses the link clicks of user_actions and leaves other actions and malformed ones out', () => {
    expect(metaLinkClicksOf(value)).toEqual([
      { at: '2025-12-01T10:00:00.000Z', clickComponent: 'cta', clickId: 'seen-by-redirect' },
      { at: '2025-12-01T10:01:00.000Z', clickComponent: 'body', productId: 'sku-9', trackingToken: 'tt' },
    ]);
    expect(metaLinkClicksOf({})).toEqual([]);
  });

  it('adds nothing for a click the redirect counted (its click_id), publishes the others as source meta', async () => {
    const published: CustomerEvent[] = [];
    const kept: ClickReference = { jobId: 'pub_1', chunkIndex: 0, index: 7, buttonIndex: 0, scope: 'job' };
    const ports = {
      correlations: { find: async (clickId: string) => (clickId === 'seen-by-redirect' ? kept : undefined) },
      events: { publish: async (_organizationId: string, event: CustomerEvent) => void published.push(event) },
      clock: { now: () => new Date('2025-12-01T10:02:00Z') },
    };
    await expect(recordMetaLinkClicks(ports, 'org_1', '120000000000001', metaLinkClicksOf(value))).resolves.toEqual({ correlated: 1, published: 1 });
    expect(published).toHaveLength(1);
    expect(published[0]!.type).toBe('link.clicked');
    expect(published[0]!.data).toEqual({
      source: 'meta',
      phoneNumberId: '120000000000001',
      at: '2025-12-01T10:01:00.000Z',
      clickComponent: 'body',
      productId: 'sku-9',
      trackingToken: 'tt',
    });
  });
});
