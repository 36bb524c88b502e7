/**
 * Analytics derived from the accepted-message log: WABA analytics fields (messaging,
 * conversation, pricing), template_analytics and template comparison.
 */
import { useSandbox, startSandboxClient } from '../../support/use-sandbox';
import {
  DAY,
  OTHER_TOKEN,
  PHONE_ID,
  RECIPIENT,
  SECOND_PHONE_ID,
  TestClock,
  WABA_ID,
  expectGraphError,
  templateMessage,
  textMessage,
  fixtureAccounts,
} from './sandbox-test-helpers';

const clock = new TestClock();
const T0 = clock.now; // 2026-01-15T12:00:00Z
const DAY0 = Date.UTC(2026, 0, 15) / 1000;
const DAY1 = DAY0 + 86_400;
const DAY2 = DAY1 + 86_400;
const UK_RECIPIENT = '447700900001';

const client = useSandbox({ accounts: fixtureAccounts(), now: () => clock.now });

beforeAll(async () => {
  client.sandbox.setTemplateStatus('3000003', 'APPROVED');
  // Onboarded, so the marketing message below goes through the Marketing Messages API (MARKETING_LITE).
  client.sandbox.setMarketingMessagesOnboarding(WABA_ID, 'ONBOARDED');
  // Day 0: two free-form messages and a utility template from the first number, one message
  // to a UK recipient from the second. Day 1: the template again, and a marketing message
  // through the Marketing Messages API.
  for (const body of [textMessage(), textMessage(), templateMessage('order_update', 'en_US', ['Ann', 'A1'])]) {
    expect((await client.send(body)).status).toBe(200);
  }
  expect((await client.send(textMessage(UK_RECIPIENT), { phoneId: SECOND_PHONE_ID })).status).toBe(200);
  clock.advance(DAY);
  expect((await client.send(templateMessage('order_update', 'en_US', ['Ann', 'A2']))).status).toBe(200);
  const marketing = await client.graph('POST', `/${PHONE_ID}/marketing_messages`, {
    body: {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: RECIPIENT,
      type: 'template',
      template: { name: 'spring_sale', language: { code: 'en_US' }, components: [{ type: 'header', parameters: [{ type: 'text', text: 'Ann' }] }] },
    },
  });
  expect(marketing.status).toBe(200);
});

const waba = (fields: string) => client.graph('GET', `/${WABA_ID}?fields=${encodeURIComponent(fields)}`);
const window = `start(${DAY0 - 3600}).end(${DAY2})`;

describe('analytics (messaging)', () => {
  it('counts sent and delivered messages per day, hour or month', async () => {
    const daily = await waba(`analytics.${window}.granularity(DAY)`);
    expect(daily.status).toBe(200);
    expect(daily.body).toEqual({
      id: WABA_ID,
      analytics: {
        phone_numbers: ['15550001001', '447700900123'],
        granularity: 'DAY',
        data_points: [
          { start: DAY0, end: DAY1, sent: 4, delivered: 4 },
          { start: DAY1, end: DAY2, sent: 2, delivered: 2 },
        ],
      },
    });
    const halfHourly = (await waba(`analytics.${window}.granularity(HALF_HOUR)`)).body.analytics.data_points;
    expect(halfHourly[0]).toEqual({ start: T0 / 1000, end: T0 / 1000 + 1800, sent: 4, delivered: 4 });
    const monthly = (await waba(`analytics.${window}.granularity(MONTH)`)).body.analytics.data_points;
    expect(monthly).toEqual([{ start: Date.UTC(2026, 0, 1) / 1000, end: Date.UTC(2026, 1, 1) / 1000, sent: 6, delivered: 6 }]);
  });

  it('filters by phone number, country and product type', async () => {
    const sent = async (filters: string) =>
      (await waba(`analytics.${window}.granularity(DAY).${filters}`)).body.analytics.data_points.map((point: { sent: number }) => point.sent);
    expect(await sent('phone_numbers(["15550001001"])')).toEqual([3, 2]);
    expect(await sent('country_codes(["GB"])')).toEqual([1]);
    expect(await sent('product_types([0])')).toEqual([1, 2]);
    expect((await waba(`analytics.${window}.granularity(DAY).country_codes(["GB"])`)).body.analytics.country_codes).toEqual(['GB']);
  });

  it('combines with plain fields and validates its modifiers', async () => {
    expect((await waba(`name,analytics.${window}.granularity(DAY)`)).body).toMatchObject({ id: WABA_ID, name: 'Account A', analytics: expect.any(Object) });
    const missing = await waba('analytics.end(1).granularity(DAY)');
    expectGraphError(missing, 400, 100);
    expect(missing.body.error.message).toBe('(#100) The parameter analytics.start is required.');
    expect((await waba(`analytics.start(${DAY1}).end(${DAY0}).granularity(DAY)`)).body.error.message).toContain('analytics.end must be after analytics.start');
    expect((await waba(`analytics.${window}.granularity(WEEK)`)).body.error.message).toContain('analytics.granularity must be one of {HALF_HOUR, DAY, MONTH}');
    expect((await waba(`analytics.start(${DAY0 - 400 * 86_400}).end(${DAY0}).granularity(DAY)`)).body.error.message).toContain('within the last year');
    expect((await waba('analytics.start(1')).body.error.message).toContain('Syntax error');
    expect((await waba('revenue')).body.error.message).toBe('(#100) Tried accessing nonexisting field (revenue) on node type (WhatsAppBusinessAccount)');
  });
});

describe('conversation_analytics', () => {
  it('counts 24-hour conversations per category with costs from the sandbox rate card', async () => {
    const result = await waba(`conversation_analytics.${window}.granularity(DAILY).dimensions(["CONVERSATION_CATEGORY","CONVERSATION_DIRECTION"])`);
    expect(result.body.conversation_analytics).toEqual({
      data: [
        {
          data_points: [
            // The second free-form message joins the first one's conversation; the other number has its own.
            { start: DAY0, end: DAY1, conversation_category: 'SERVICE', conversation_direction: 'USER_INITIATED', conversation: 2, cost: 0 },
            { start: DAY0, end: DAY1, conversation_category: 'UTILITY', conversation_direction: 'BUSINESS_INITIATED', conversation: 1, cost: 0.004 },
            // 24 hours later the utility window has closed, so the template opens a new one.
            { start: DAY1, end: DAY2, conversation_category: 'UTILITY', conversation_direction: 'BUSINESS_INITIATED', conversation: 1, cost: 0.004 },
            { start: DAY1, end: DAY2, conversation_category: 'MARKETING', conversation_direction: 'BUSINESS_INITIATED', conversation: 1, cost: 0.025 },
          ],
        },
      ],
    });
  });

  it('filters by category and metric', async () => {
    const result = await waba(`conversation_analytics.${window}.granularity(MONTHLY).conversation_categories(["UTILITY"]).metric_types(["CONVERSATION"])`);
    expect(result.body.conversation_analytics.data[0].data_points).toEqual([
      { start: Date.UTC(2026, 0, 1) / 1000, end: Date.UTC(2026, 1, 1) / 1000, conversation: 2 },
    ]);
    expect((await waba(`conversation_analytics.${window}.granularity(DAY)`)).body.error.message).toContain('{HALF_HOUR, DAILY, MONTHLY}');
    const uk = await waba(`conversation_analytics.${window}.granularity(MONTHLY).country_codes(["GB"])`);
    expect(uk.body.conversation_analytics.data[0].data_points).toEqual([
      { start: Date.UTC(2026, 0, 1) / 1000, end: Date.UTC(2026, 1, 1) / 1000, conversation: 1, cost: 0 },
    ]);
  });
});

describe('pricing_analytics', () => {
  it('reports volume and cost per pricing category and type', async () => {
    const result = await waba(`pricing_analytics.${window}.granularity(DAILY).dimensions(["PRICING_CATEGORY","PRICING_TYPE","COUNTRY"])`);
    expect(result.body.pricing_analytics.data[0].data_points).toEqual([
      { start: DAY0, end: DAY1, pricing_category: 'SERVICE', pricing_type: 'FREE_CUSTOMER_SERVICE', country: 'US', volume: 2, cost: 0 },
      { start: DAY0, end: DAY1, pricing_category: 'UTILITY', pricing_type: 'REGULAR', country: 'US', volume: 1, cost: 0.004 },
      { start: DAY0, end: DAY1, pricing_category: 'SERVICE', pricing_type: 'FREE_CUSTOMER_SERVICE', country: 'GB', volume: 1, cost: 0 },
      { start: DAY1, end: DAY2, pricing_category: 'UTILITY', pricing_type: 'REGULAR', country: 'US', volume: 1, cost: 0.004 },
      { start: DAY1, end: DAY2, pricing_category: 'MARKETING_LITE', pricing_type: 'REGULAR', country: 'US', volume: 1, cost: 0.025 },
    ]);
  });

  it('filters by category, type, country and metric', async () => {
    const points = async (filters: string) =>
      (await waba(`pricing_analytics.${window}.granularity(MONTHLY).${filters}`)).body.pricing_analytics.data[0].data_points;
    expect(await points('pricing_categories(["MARKETING_LITE"])')).toEqual([
      { start: Date.UTC(2026, 0, 1) / 1000, end: Date.UTC(2026, 1, 1) / 1000, volume: 1, cost: 0.025 },
    ]);
    expect(await points('pricing_types(["REGULAR"]).metric_types(["VOLUME"])')).toEqual([
      { start: Date.UTC(2026, 0, 1) / 1000, end: Date.UTC(2026, 1, 1) / 1000, volume: 3 },
    ]);
    expect(await points('country_codes(["GB"])')).toEqual([{ start: Date.UTC(2026, 0, 1) / 1000, end: Date.UTC(2026, 1, 1) / 1000, volume: 1, cost: 0 }]);
    expect((await waba(`pricing_analytics.${window}.granularity(DAILY).pricing_categories(["LUXURY"])`)).body.error.message).toContain(
      'pricing_analytics.pricing_categories must be a list of',
    );
    // Volume tiers are not modelled: TIER and tiers are accepted and change nothing.
    expect(await points('dimensions(["TIER"]).tiers(["0:250000"])')).toEqual(await points('metric_types(["VOLUME","COST"])'));
  });
});

describe('template_analytics', () => {
  const analytics = (query: string) => client.graph('GET', `/${WABA_ID}/template_analytics?${query}`);

  it('reports sends per template and day, zero-filled, with the requested metrics', async () => {
    const result = await analytics(`start=${DAY0 - 86_400}&end=${DAY1 + 3600}&granularity=DAILY&template_ids=[3000001,3000003]`);
    expect(result.status).toBe(200);
    const [entry] = result.body.data;
    expect(entry).toMatchObject({ granularity: 'DAILY', product_type: 'cloud_api' });
    const summary = entry.data_points.map((point: { template_id: string; start: number; sent: number }) => [point.template_id, point.start, point.sent]);
    expect(summary).toEqual([
      ['3000001', DAY0 - 86_400, 0],
      ['3000001', DAY0, 1],
      ['3000001', DAY1, 1],
      ['3000003', DAY0 - 86_400, 0],
      ['3000003', DAY0, 0],
      ['3000003', DAY1, 1],
    ]);
    expect(entry.data_points[1]).toEqual({ template_id: '3000001', start: DAY0, end: DAY1, sent: 1, delivered: 1, read: 0, clicked: [] });
    const cost = await analytics(`start=${DAY1}&end=${DAY1 + 60}&granularity=DAILY&template_ids=3000003&metric_types=SENT,COST`);
    expect(cost.body.data[0].data_points).toEqual([
      {
        template_id: '3000003',
        start: DAY1,
        end: DAY2,
        sent: 1,
        cost: [
          { type: 'amount_spent', value: 0.025 },
          { type: 'cost_per_delivered', value: 0.025 },
        ],
      },
    ]);
  });

  it.each<[string, string]>([
    [`start=${DAY0}&end=${DAY1}&granularity=DAILY`, '(#100) The parameter template_ids is required.'],
    [`end=${DAY1}&granularity=DAILY&template_ids=[3000001]`, '(#100) The parameter start is required.'],
    [`start=${DAY0}&end=${DAY1}&granularity=HOURLY&template_ids=[3000001]`, 'Param granularity must be one of {DAILY}'],
    [`start=${DAY0}&end=${DAY1}&granularity=DAILY&template_ids=[${Array.from({ length: 11 }, () => '3000001').join(',')}]`, 'at most 10 elements'],
    [`start=${DAY0}&end=${DAY1}&granularity=DAILY&template_ids=[424242]`, '424242 is not a template of this WhatsApp Business Account'],
    [`start=${DAY0 - 100 * 86_400}&end=${DAY1}&granularity=DAILY&template_ids=[3000001]`, 'within the last 90 days'],
    [
      `start=${DAY0}&end=${DAY1}&granularity=DAILY&template_ids=[3000001]&metric_types=OPENED`,
      'Param metric_types must be a list of {SENT, DELIVERED, READ, CLICKED, COST}',
    ],
  ])('rejects %s', async (query, message) => {
    const result = await analytics(query);
    expectGraphError(result, 400, 100);
    expect(result.body.error.message).toContain(message);
  });
});

describe('GET /{template-id}/compare', () => {
  it('compares sends of two templates of the WABA', async () => {
    const result = await client.graph('GET', `/3000001/compare?template_ids=[3000003]&start=${DAY0}&end=${DAY2}`);
    expect(result.body).toEqual({
      data: [
        { metric: 'BLOCK_RATE', type: 'RELATIVE', order_by_relative_metric: ['3000001', '3000003'] },
        {
          metric: 'MESSAGE_SENDS',
          type: 'NUMBER_VALUES',
          number_values: [
            { key: '3000001', value: 2 },
            { key: '3000003', value: 1 },
          ],
        },
        {
          metric: 'TOP_BLOCK_REASON',
          type: 'STRING_VALUES',
          string_values: [
            { key: '3000001', value: 'UNKNOWN_BLOCK_REASON' },
            { key: '3000003', value: 'UNKNOWN_BLOCK_REASON' },
          ],
        },
      ],
    });
    // Millisecond timestamps, as in one of Meta's examples, mean the same window.
    expect((await client.graph('GET', `/3000001/compare?template_ids=[3000003]&start=${DAY0 * 1000}&end=${DAY2 * 1000}`)).body).toEqual(result.body);
  });

  it('needs exactly one other template of the same WABA and a window of at most 90 days', async () => {
    const compare = (query: string, token?: string) => client.graph('GET', `/3000001/compare?${query}`, token === undefined ? {} : { token });
    expect((await compare(`template_ids=[3000002,3000003]&start=${DAY0}&end=${DAY1}`)).body.error.message).toContain('exactly one template');
    expect((await compare(`template_ids=[3000001]&start=${DAY0}&end=${DAY1}`)).body.error.message).toContain(
      'is not another template of the same WhatsApp Business Account',
    );
    expect((await compare(`template_ids=[3000003]&start=${DAY0}&end=${DAY0 + 91 * 86_400}`)).body.error.message).toContain('at most 90 days');
    expectGraphError(await compare(`template_ids=[3000003]&start=${DAY0}&end=${DAY1}`, OTHER_TOKEN), 401, 190);
  });
});

describe('analytics and the message log', () => {
  it('clear with the accepted messages', async () => {
    const other = await startSandboxClient({ accounts: fixtureAccounts(), now: () => T0 });
    try {
      await other.send(textMessage());
      const count = async () =>
        (await other.graph('GET', `/${WABA_ID}?fields=analytics.${encodeURIComponent(window)}.granularity(DAY)`)).body.analytics.data_points.length;
      expect(await count()).toBe(1);
      await other.sandboxApi('DELETE', '/messages');
      expect(await count()).toBe(0);
      await other.send(textMessage());
      other.sandbox.reset();
      expect(await count()).toBe(0);
    } finally {
      await other.close();
    }
  });
});
