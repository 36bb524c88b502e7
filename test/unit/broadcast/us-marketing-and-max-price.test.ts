import { SendApiChoice } from '../../../shared/broadcast/chunk-worker/send-api';
import type { TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { UsMarketingPausedError } from '../../../shared/broadcast/errors';
import { marketingMessagesRoute } from '../../../shared/broadcast/marketing-messages-route';
import { maxPriceOf } from '../../../shared/broadcast/template-max-price';
import { isUsRecipient, requireNoUsMarketing, usMarketingGuarded } from '../../../shared/broadcast/us-marketing-guard';
import type { SendOutcome, UpstreamTemplate } from '../../../shared/sending/ports';
import { describeReason } from '../../../shared/sending/failure-reasons';

describe('the US marketing guard (us-marketing-guard.ts)', () => {
  it('counts +1 numbers of the US (and of no known NANP country) and US. user ids; not Canada, Jamaica or other countries', () => {
    expect(['12025550123', '12125551234', '15550001111', 'US.13491208655302741918', 'US.ENT.11815799212886844830'].map(isUsRecipient)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['14165550123', '18765550123', '447700900001', '919800000001', 'CA.1349', 'GB.1'].map(isUsRecipient)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('applies to MARKETING templates unless the organization turned it off', () => {
    expect(usMarketingGuarded('MARKETING', {})).toBe(true);
    expect(usMarketingGuarded('MARKETING', { usMarketingGuard: false })).toBe(false);
    expect(usMarketingGuarded('UTILITY', {})).toBe(false);
  });

  it('refuses the first US recipient by index and field: countryCode for a number, userId for a BSUID', () => {
    const data = [{}, {}, { userId: 'US.1349' }];
    expect(() => requireNoUsMarketing('MARKETING', {}, 'spring_sale', data, ['447700900001', '12025550123', 'US.1349'])).toThrow(
      expect.objectContaining({
        code: 'US_MARKETING_PAUSED',
        message: expect.stringMatching(/^data\[1\]\.countryCode must not be 1 \(a US number\) for MARKETING template spring_sale/),
      }),
    );
    expect(() => requireNoUsMarketing('MARKETING', {}, 'spring_sale', data, ['447700900001', '14165550123', 'US.1349'])).toThrow(
      /^data\[2\]\.userId must not be a US user id \(US\.1349\)/,
    );
    expect(() => requireNoUsMarketing('MARKETING', {}, 'spring_sale', data, ['447700900001', '14165550123', 'US.1349'])).toThrow(UsMarketingPausedError);
    expect(() => requireNoUsMarketing('MARKETING', { usMarketingGuard: false }, 'spring_sale', data, ['12025550123'])).not.toThrow();
    expect(() => requireNoUsMarketing('UTILITY', {}, 'order_update', data, ['12025550123'])).not.toThrow();
    expect(describeReason('US_MARKETING_PAUSED').text).toMatch(/US \(\+1\)/);
  });
});

describe('max-price templates', () => {
  const template: UpstreamTemplate = { id: '1', name: 'capped', language: 'en', status: 'APPROVED', category: 'MARKETING', components: [] };

  it('reads the cap from optimization_spec, else the older bid_spec; none without a bid_amount', () => {
    expect(maxPriceOf({ ...template, optimization_spec: { bid_amount: 0.05, bid_strategy: 'LOWEST_COST_WITH_BID_CAP' } })).toEqual({
      bidAmount: '0.05',
      bidStrategy: 'LOWEST_COST_WITH_BID_CAP',
    });
    expect(maxPriceOf({ ...template, bid_spec: { bid_amount: '12' } })).toEqual({ bidAmount: '12' });
    expect(maxPriceOf({ ...template, optimization_spec: { bid_strategy: 'X' } })).toBeUndefined();
    expect(maxPriceOf(template)).toBeUndefined();
  });

  it('go through the Marketing Messages API whatever the account setting', () => {
    for (const setting of ['disabled', 'auto', 'enabled', undefined] as const)
      expect(marketingMessagesRoute({ category: 'MARKETING', setting, maxPrice: true })).toBe('marketing_messages');
    expect(marketingMessagesRoute({ category: 'MARKETING', setting: 'disabled' })).toBe('cloud_api');
  });

  it('never fall back to /messages on a refusal the API would otherwise fall back on', async () => {
    const refused: SendOutcome = { kind: 'rejected', error: { code: 134101, message: 'still syncing', type: 'OAuthException' } } as SendOutcome;
    const calls: Array<string | undefined> = [];
    const upstream = {
      sendMessage: async (_id: string, _body: Record<string, unknown>, _call: unknown, endpoint?: { api?: string }) => (calls.push(endpoint?.api), refused),
    };
    const message = (maxPrice?: { bidAmount: string }) =>
      ({
        kind: 'template-chunk',
        template: { name: 'capped', language: 'en', api: 'marketing_messages', ...(maxPrice && { maxPrice }) },
      }) as unknown as TemplateChunkMessage;

    const capped = SendApiChoice.of(message({ bidAmount: '0.05' }));
    expect(await capped.send(upstream as never, 'pn', { to: '1' }, { accessToken: 't' })).toEqual({ outcome: refused, via: 'marketing_messages' });
    expect(calls).toEqual(['marketing_messages']);
    expect(capped.fallbacks).toBe(0);

    calls.length = 0;
    const plain = SendApiChoice.of(message());
    expect((await plain.send(upstream as never, 'pn', { to: '1' }, { accessToken: 't' })).via).toBe('cloud_api');
    expect(calls).toEqual(['marketing_messages', undefined]);
  });

  it('131061 and 131065 have words and actions; 131062 names max price', () => {
    expect(describeReason('131061')).toMatchObject({ text: expect.stringMatching(/max price/), action: expect.any(String) });
    expect(describeReason('131065')).toMatchObject({ text: expect.stringMatching(/country/), action: expect.any(String) });
    expect(describeReason('131062').text).toMatch(/max price/);
  });
});
