/**
 * The expander's store faults are ridden out in place (functions/composition/store-retries.ts), as the
 * chunk worker's are: a failed expansion message would wait the queue's visibility timeout (minutes).
 */
import { withRetriedStorePorts } from '../../../functions/composition/store-retries';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { ORG } from '../../support/broadcast-fakes';
import { campaignKit, createCampaign, drainExpansions, launch, member, queuedIndexesByRecipient, seedAudience } from '../../support/campaign-expander-kit';

const invocation = { remainingTimeMs: () => 60_000, sleep: async () => undefined, random: () => 0.5 };

describe('the expander under store faults', () => {
  it('retries a claim write that timed out and reaches everyone once, with no failed delivery', async () => {
    const kit = campaignKit();
    seedAudience(kit, 'aud_a', [member(1), member(2), member(3)]);
    await createCampaign(kit, {});
    await launch(kit);
    const claimPersons = kit.claims.claimPersons.bind(kit.claims);
    let faults = 2;
    kit.claims.claimPersons = async (...args) => {
      if (faults-- > 0) throw new StoreUnavailableError('Store unavailable: TimeoutError');
      return claimPersons(...args);
    };
    const retried = withRetriedStorePorts(kit.expander, ['claims', 'campaigns', 'broadcasts'], invocation);
    const outcomes = await drainExpansions(kit, { dependencies: retried });
    expect(outcomes.at(-1)).toBe('done');
    expect(faults).toBeLessThan(0);
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(3);
    expect((await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!.expansion!.counts.sendable).toBe(3);
  });

  it('does not retry what no retry mends (a bug, a refusal): the delivery fails', async () => {
    const kit = campaignKit();
    seedAudience(kit, 'aud_a', [member(1)]);
    await createCampaign(kit, {});
    await launch(kit);
    kit.claims.claimPersons = async () => {
      throw new TypeError('a bug');
    };
    const retried = withRetriedStorePorts(kit.expander, ['claims'], invocation);
    await expect(drainExpansions(kit, { dependencies: retried })).rejects.toThrow('a bug');
  });
});
