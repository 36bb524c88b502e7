import { dryRunBroadcast } from '../../../shared/broadcast/dry-run-broadcast';
import { parseDryRunRequest } from '../../../shared/broadcast/dry-run-request';
import { sendTemplateBroadcast } from '../../../shared/broadcast/send-template-broadcast';
import { parseRateCard, type RateCard } from '../../../shared/pricing/rate-card';
import { fixedClock } from '../../../shared/ports/clock';
import { ORG, SENDER, broadcastRequest, recipientNumber } from '../../support/broadcast-fakes';
import { templateBroadcastKit } from '../../support/template-broadcast-kit';
import { FixedMessagingTiers, InMemoryPortfolioReach } from '../../support/broadcast-port-fakes';
import { InMemoryServiceMessageCounter } from '../../support/delivery-fakes';

const full = (index: number) => `91${recipientNumber(index)}`;
const card: RateCard = parseRateCard({ currency: 'USD', rates: { '91': { utility: '0.0014', marketing: '0.0107' }, '*': { utility: '0.01' } } });

function setup(options: { rateCard?: RateCard; tier?: string } = {}) {
  const clock = fixedClock('2026-03-01T09:00:00.000Z');
  const kit = templateBroadcastKit(clock);
  const messagingTiers = new FixedMessagingTiers();
  if (options.tier) messagingTiers.tiers.set(SENDER.phoneNumberId, options.tier);
  const portfolioReach = new InMemoryPortfolioReach();
  const dependencies = { ...kit.dependencies, messagingTiers, portfolioReach, rateCards: { rateCardOf: async () => options.rateCard } };
  const optOut = (index: number) => kit.optOuts.seed(ORG, { phoneNumber: full(index), source: 'api', createdAt: '2026-03-01T08:00:00.000Z' });
  /** Runs the dry run on a raw body, as the route does. */
  const dryRun = (body: unknown) => {
    const { request, screened } = parseDryRunRequest(body);
    return dryRunBroadcast(dependencies, { organizationId: ORG }, request, screened);
  };
  return { ...kit, dependencies, portfolioReach, optOut, dryRun };
}

describe('dryRunBroadcast', () => {
  it('reports every bad row with its index, field and rule, and counts each row once', async () => {
    const kit = setup();
    kit.optOut(7);
    const body = broadcastRequest(12) as { data: Record<string, unknown>[] };
    body.data[2] = { countryCode: '91', toPhoneNumber: '98x' }; // bad phone (schema)
    body.data[4] = { countryCode: '91', toPhoneNumber: recipientNumber(4), templateParams: ['only one'] }; // missing param
    body.data[5] = { countryCode: '91', toPhoneNumber: recipientNumber(4), templateParams: ['a', 'b'] }; // duplicate of row 4
    body.data[9] = { countryCode: '91' }; // no address
    const result = await kit.dryRun(body);

    expect(result.totals).toEqual({ received: 12, sendable: 7, optedOut: 1, duplicates: 1, invalid: 3 });
    // Every rule a row breaks: '98x' is neither digits only nor long enough.
    expect(result.invalid.map(({ index, field }) => [index, field])).toEqual([
      [2, 'data[2].toPhoneNumber'],
      [2, 'data[2].toPhoneNumber'],
      [4, 'data[4].templateParams'],
      [9, 'data[9]'],
    ]);
    expect(result.invalid[2]!.rule).toMatch(/has 1 values; template order_update needs exactly 2/);
    expect(result.duplicates).toEqual([{ index: 5, duplicateOf: 4 }]);
    expect(result.optedOut).toEqual([{ index: 7 }]);
  });

  it('writes, queues and reserves nothing, and a real accept with the same body is unaffected', async () => {
    const kit = setup({ tier: 'TIER_1K' });
    const result = await kit.dryRun(broadcastRequest(3));
    expect(result.messagingLimit).toEqual({ tier: 'TIER_1K', limit: 1000, usedLast24h: 0, headroom: 1000, newRecipients: 3, wouldExceed: false });
    expect(kit.queue.messages).toHaveLength(0);
    expect(kit.broadcasts.jobs.size).toBe(0);
    expect(kit.portfolioReach.writes).toBe(0);

    await sendTemplateBroadcast(kit.dependencies, { organizationId: ORG }, broadcastRequest(3), { idempotencyKey: 'k1', inProgressTimeoutMs: 20_000 });
    expect(kit.broadcasts.jobs.size).toBe(1);
    const again = await kit.dryRun(broadcastRequest(4));
    // The accepted three are in the window now; only the fourth is new.
    expect(again.messagingLimit).toMatchObject({ usedLast24h: 3, headroom: 997, newRecipients: 1 });
  });

  it('says when the request would pass the messaging limit', async () => {
    const kit = setup({ tier: 'TIER_250' });
    const result = await kit.dryRun(broadcastRequest(251));
    expect(result.messagingLimit).toMatchObject({ limit: 250, headroom: 250, newRecipients: 251, wouldExceed: true });
  });

  it("estimates the cost of the sendable recipients at the template category's rate per calling code", async () => {
    const kit = setup({ rateCard: card });
    const body = broadcastRequest(3) as { data: Record<string, unknown>[] };
    body.data[2] = { countryCode: '44', toPhoneNumber: '7700900001', templateParams: ['a', 'b'] };
    const result = await kit.dryRun(body);
    expect(result.estimatedCost).toEqual({
      currency: 'USD',
      amount: '0.0128',
      priced: 3,
      unpriced: 0,
      byCategory: { utility: { count: 3, amount: '0.0128' } },
    });
  });

  it('shows the sender’s service messages delivered this UTC month and what is left of the 1,000 free', async () => {
    const kit = setup();
    const serviceTier = new InMemoryServiceMessageCounter();
    for (let index = 0; index < 3; index += 1) await serviceTier.countDelivery(SENDER.phoneNumberId, '2026-03', `wamid.${index}`);
    await serviceTier.countDelivery(SENDER.phoneNumberId, '2026-02', 'wamid.february');
    const { request } = parseDryRunRequest(broadcastRequest(1));
    const result = await dryRunBroadcast({ ...kit.dependencies, serviceTier }, { organizationId: ORG }, request);
    expect(result.serviceMessages).toEqual({ month: '2026-03', delivered: 3, freeRemaining: 997 });
    expect(await kit.dryRun(broadcastRequest(1))).not.toHaveProperty('serviceMessages');
  });

  it('has no estimatedCost without a rate card', async () => {
    const result = await setup().dryRun(broadcastRequest(1));
    expect(result).not.toHaveProperty('estimatedCost');
  });

  it('fails as a real accept does for what is not a row (the template)', async () => {
    await expect(setup().dryRun(broadcastRequest(1, { templateName: 'nope' }))).rejects.toMatchObject({ code: 'TEMPLATE_NOT_FOUND' });
  });

  it('answers a body whose every row is bad with every row listed', async () => {
    const result = await setup().dryRun({ ...broadcastRequest(1), data: [{}, { countryCode: 'x', toPhoneNumber: '1' }] });
    expect(result.totals).toMatchObject({ received: 2, sendable: 0, invalid: 2 });
    expect(result.invalid.map(({ index }) => index)).toEqual([0, 1, 1]);
  });
});
