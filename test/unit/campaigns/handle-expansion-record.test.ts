/**
 * A campaign-expansion record that fails (a store fault beyond the in-place retries) first comes back
 * after seconds, not after the queue's 6-minute visibility timeout, and resumes from its checkpoint.
 */
import type { SQSRecord } from 'aws-lambda';
import { handleExpansionRecord } from '../../../functions/campaign-expander/handle-expansion-record';
import { encodeExpansionMessage } from '../../../shared/campaigns/expansion-message';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { ORG } from '../../support/broadcast-fakes';
import { campaignKit, createCampaign, launch, member, queuedIndexesByRecipient, seedAudience } from '../../support/campaign-expander-kit';

function recordOf(kit: ReturnType<typeof campaignKit>, receiveCount: number): SQSRecord {
  const [entry] = kit.expansions.queued;
  return {
    body: encodeExpansionMessage(entry!.message),
    receiptHandle: `receipt-${receiveCount}`,
    attributes: { ApproximateReceiveCount: String(receiveCount) },
  } as unknown as SQSRecord;
}

describe('a campaign-expansion record', () => {
  it('that fails is brought back after 1-2 s on its first receive, after the visibility timeout on later ones, and fails the delivery', async () => {
    const kit = campaignKit();
    seedAudience(kit, 'aud_a', [member(1), member(2)]);
    await createCampaign(kit, {});
    await launch(kit);
    const claimPersons = kit.claims.claimPersons.bind(kit.claims);
    kit.claims.claimPersons = async () => {
      throw new StoreUnavailableError('Store unavailable: TimeoutError');
    };
    const deferred: Array<[string, number]> = [];
    const redelivery = { queue: { defer: async (handle: string, seconds: number) => void deferred.push([handle, seconds]) }, random: () => 0.999 };

    await expect(handleExpansionRecord(kit.expander, recordOf(kit, 1), redelivery)).rejects.toThrow(StoreUnavailableError);
    await expect(handleExpansionRecord(kit.expander, recordOf(kit, 3), redelivery)).rejects.toThrow(StoreUnavailableError);
    // The later failure keeps the queue's 6 minutes: five receives still span a long outage.
    expect(deferred).toEqual([['receipt-1', 2]]);

    // The store is back: the same message resumes and reaches everyone once, with nothing deferred.
    kit.claims.claimPersons = claimPersons;
    await handleExpansionRecord(kit.expander, recordOf(kit, 4), redelivery);
    expect(deferred).toHaveLength(1);
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(2);
    expect((await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!.expansion!.counts.sendable).toBe(2);
  });

  it('still fails its delivery when the visibility cannot be changed (the queue timeout brings it back)', async () => {
    const kit = campaignKit();
    seedAudience(kit, 'aud_a', [member(1)]);
    await createCampaign(kit, {});
    await launch(kit);
    kit.claims.claimPersons = async () => {
      throw new StoreUnavailableError('Store unavailable: TimeoutError');
    };
    const redelivery = {
      queue: {
        defer: async () => {
          throw new Error('queue unavailable');
        },
      },
      random: () => 0.5,
    };
    await expect(handleExpansionRecord(kit.expander, recordOf(kit, 1), redelivery)).rejects.toThrow(StoreUnavailableError);
  });
});
