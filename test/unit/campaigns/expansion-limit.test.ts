/** A campaign larger than the messaging limit sends what fits, waits for the moving window, and completes (a controllable clock). */
import { ORG, SENDER } from '../../support/broadcast-fakes';
import { campaignKit, createCampaign, drainExpansions, launch, member, queuedIndexesByRecipient, seedAudience } from '../../support/campaign-expander-kit';

describe('the expander under the messaging limit', () => {
  it('sends what fits, waits until the 24-hour window frees, then continues until done', async () => {
    const kit = campaignKit('2026-05-04T10:00:00.000Z');
    kit.messagingTiers.tiers.set(SENDER.phoneNumberId, 'TIER_250');
    seedAudience(
      kit,
      'aud_a',
      Array.from({ length: 600 }, (_, index) => member(index)),
    );
    await createCampaign(kit);
    await launch(kit);

    expect(await drainExpansions(kit)).toEqual(['waiting']);
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(250);
    const waiting = (await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!.expansion!;
    // The 10:00 hour's bucket leaves the window 25 h after the hour starts.
    expect(waiting).toMatchObject({ status: 'waiting', waitingUntil: '2026-05-05T11:00:00.000Z' });
    expect(kit.expansions.queued[0]!.delaySeconds).toBe(900);

    // Each delayed message comes back and is re-queued until the time has come.
    const outcomes: string[] = [];
    while (kit.clock.now() < new Date('2026-05-05T11:00:00.000Z')) {
      kit.clock.advanceBy(900_000);
      outcomes.push(...(await drainExpansions(kit)));
    }
    expect(new Set(outcomes)).toEqual(new Set(['waiting']));
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(500);
    expect((await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!.expansion).toMatchObject({ status: 'waiting', waitingUntil: '2026-05-06T12:00:00.000Z' });

    kit.clock.set('2026-05-06T12:00:00.000Z');
    expect(await drainExpansions(kit)).toEqual(['done']);
    const byTo = queuedIndexesByRecipient(kit.queue.messages);
    expect(byTo.size).toBe(600);
    expect([...byTo.values()].every((indexes) => indexes.size === 1)).toBe(true);
    expect((await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!.expansion).toMatchObject({ status: 'done', counts: { sendable: 600 } });
  });

  it('a page whose recipients no longer fit (another send took the headroom) waits with its page kept', async () => {
    const kit = campaignKit('2026-05-04T10:00:00.000Z');
    kit.messagingTiers.tiers.set(SENDER.phoneNumberId, 'TIER_250');
    seedAudience(
      kit,
      'aud_a',
      Array.from({ length: 100 }, (_, index) => member(index)),
    );
    await createCampaign(kit);
    await launch(kit);
    const { reserveReach } = await import('../../../shared/broadcast/messaging-limit');
    const getCampaign = kit.campaigns.getCampaign.bind(kit.campaigns);
    // Another send reaches 200 people between the page-size decision and the page's reservation.
    let raced = false;
    kit.expander.campaigns = {
      getCampaign,
      saveExpansion: async (...args) => {
        const saved = await kit.campaigns.saveExpansion(...args);
        if (!raced && args[2].pageSize !== undefined) {
          raced = true;
          await reserveReach(
            kit.expander,
            SENDER,
            Array.from({ length: 200 }, (_, index) => `4470000${String(index).padStart(5, '0')}`),
            kit.clock.now(),
          );
        }
        return saved;
      },
    };
    expect(await drainExpansions(kit)).toEqual(['waiting']);
    expect(kit.queue.messages).toHaveLength(0);
    expect((await getCampaign(ORG, 'cmp_spring'))!.expansion).toMatchObject({ status: 'waiting', pageSize: 250, waitingUntil: '2026-05-05T11:00:00.000Z' });
    kit.clock.set('2026-05-05T11:00:00.000Z');
    expect(await drainExpansions(kit)).toEqual(['done']);
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(100);
  });
});
