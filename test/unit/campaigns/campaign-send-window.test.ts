/**
 * A campaign's send window reaches its chunk messages (the rules) and each member's own `timeZone`
 * attribute rides with their recipient (docs/CAMPAIGNS.md "Send windows"); its dry run plans the window.
 */
import { decodeOutboundMessage, encodeOutboundMessage } from '../../../shared/broadcast/chunk-message';
import { dryRunCampaign } from '../../../shared/campaigns/campaign-dry-run';
import { ORG } from '../../support/broadcast-fakes';
import { campaignKit, createCampaign, drainExpansions, launch, member, seedAudience } from '../../support/campaign-expander-kit';

describe('a campaign with a send window', () => {
  it('queues chunks carrying the window, and each member’s valid timeZone attribute', async () => {
    const kit = campaignKit();
    seedAudience(kit, 'aud_a', [
      member(1, { first_name: 'A', timeZone: 'Europe/Paris' }),
      member(2, { first_name: 'B', timeZone: 'Mars/Olympus' }),
      member(3, { first_name: 'C' }),
    ]);
    const sendWindow = { from: '09:00', to: '20:00' };
    await createCampaign(kit, { audience: { audienceIds: ['aud_a'] }, sendRules: { sendWindow } });
    await launch(kit);
    await drainExpansions(kit);
    const [message] = kit.queue.messages;
    expect(message!.sendRules).toEqual({ sendWindow });
    const zones = new Map(message!.recipients.map((recipient) => [recipient.to, recipient.timeZone]));
    expect(zones.get(member(1).to)).toBe('Europe/Paris');
    expect(zones.get(member(2).to)).toBeUndefined();
    expect(zones.get(member(3).to)).toBeUndefined();
    expect(decodeOutboundMessage(encodeOutboundMessage(message!))).toEqual(message);
  });
});

describe('the dry run of a campaign with a send window', () => {
  it('says how many go at launch and when the rest go, by each member’s zone', async () => {
    // The kit's clock: 2026-05-04T10:00Z, 15:30 in India, 12:00 in Paris, 19:00 in Tokyo.
    const kit = campaignKit();
    seedAudience(kit, 'aud_a', [
      member(1, { first_name: 'A' }),
      member(2, { first_name: 'B', timeZone: 'Asia/Tokyo' }),
      member(3, { first_name: 'C', timeZone: 'America/New_York' }),
    ]);
    await createCampaign(kit, { audience: { audienceIds: ['aud_a'] }, sendRules: { sendWindow: { from: '09:00', to: '18:00' } } });
    const result = await dryRunCampaign({ ...kit.expander, members: kit.members }, { organizationId: ORG }, 'cmp_spring');
    expect(result.sendWindow).toEqual({
      now: 1,
      later: [
        { at: '2026-05-04T13:00:00.000Z', count: 1 },
        { at: '2026-05-05T00:00:00.000Z', count: 1 },
      ],
    });
    await createCampaign(kit, { campaignId: 'cmp_plain', audience: { audienceIds: ['aud_a'] } });
    expect(await dryRunCampaign({ ...kit.expander, members: kit.members }, { organizationId: ORG }, 'cmp_plain')).not.toHaveProperty('sendWindow');
  });
});
