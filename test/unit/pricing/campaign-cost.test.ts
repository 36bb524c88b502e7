import { pricingSuffix, splitPricedCode } from '../../../shared/delivery/message-pricing';
import { tallyCodeOfFacts } from '../../../shared/delivery/recipient-status';
import { campaignCostOf, recipientCostOf } from '../../../shared/pricing/campaign-cost';
import { parseRateCard } from '../../../shared/pricing/rate-card';

const marketing = { category: 'marketing', type: 'regular', billable: true, pricingModel: 'PMP' };
const card = parseRateCard({ currency: 'USD', rates: { '44': { marketing: '0.0529' }, '*': { marketing: '0.06' } } });

describe('the calling code on the tally code', () => {
  it('follows the pricing and keeps the code a max-register (the code without it is smaller)', () => {
    expect(pricingSuffix({ stage: 'delivered', pricing: marketing }, '44')).toBe('~3marketing~1~44');
    const before = tallyCodeOfFacts({ sentAt: 't', sentPricing: marketing }, '44')!;
    const after = tallyCodeOfFacts({ sentAt: 't', deliveredAt: 't', deliveredPricing: marketing }, '44')!;
    expect(after > before).toBe(true);
    expect(tallyCodeOfFacts({ sentAt: 't', sentPricing: marketing })! < before).toBe(true);
    expect(tallyCodeOfFacts({ sentAt: 't' }, '44')).toBe('1S');
  });

  it('is read back with the pricing, and codes without it still parse', () => {
    expect(splitPricedCode('4R~4marketing~1~44')).toEqual({ status: '4R', pricing: { category: 'marketing', billable: true, callingCode: '44' } });
    expect(splitPricedCode('3D~3utility~0')).toEqual({ status: '3D', pricing: { category: 'utility', billable: false } });
  });
});

describe('campaignCostOf', () => {
  it('prices each billable recipient once at its country row, else the * row', () => {
    const cost = campaignCostOf(card, [
      [0, '3D~3marketing~1~44'],
      [1, '4R~4marketing~1~44'],
      [2, '3D~3marketing~1'],
      [3, '3D~3marketing~0~44'],
      [4, '1S'],
      [5, '2F:131049'],
    ]);
    expect(cost).toEqual({ currency: 'USD', billed: 3, amount: '0.1658', byCategory: { marketing: { billed: 3, amount: '0.1658' } } });
  });

  it('counts billable recipients no row prices apart, and is absent while none is billable', () => {
    expect(campaignCostOf(card, [[0, '3D~3utility~1~44']])).toEqual({ currency: 'USD', billed: 0, amount: '0.00', byCategory: {}, unpriced: 1 });
    expect(
      campaignCostOf(card, [
        [0, '1S'],
        [1, '3D~3marketing~0'],
      ]),
    ).toBeUndefined();
  });
});

describe('recipientCostOf', () => {
  const billed = { category: 'marketing', billable: true };
  it("prices a billed row at its country's rate, by number part, whole number or user id", () => {
    expect(recipientCostOf(card, { countryCode: '44', toPhoneNumber: '7700900001', pricing: billed })).toEqual({ currency: 'USD', amount: '0.0529' });
    expect(recipientCostOf(card, { countryCode: '', toPhoneNumber: '447700900001', pricing: billed })).toEqual({ currency: 'USD', amount: '0.0529' });
    expect(recipientCostOf(card, { countryCode: '', toPhoneNumber: '', userId: 'US.1', pricing: billed })).toEqual({ currency: 'USD', amount: '0.06' });
  });

  it('has none for a row Meta did not bill or no row prices', () => {
    expect(recipientCostOf(card, { countryCode: '44', toPhoneNumber: '1', pricing: { ...billed, billable: false } })).toBeUndefined();
    expect(recipientCostOf(card, { countryCode: '44', toPhoneNumber: '1' })).toBeUndefined();
    expect(recipientCostOf(card, { countryCode: '44', toPhoneNumber: '1', pricing: { category: 'utility', billable: true } })).toBeUndefined();
  });
});
