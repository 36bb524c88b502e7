/**
 * The campaign dry run (shared/campaigns/campaign-dry-run.ts) counts what the expander then does:
 * run on fakes against a known audience, then the campaign launched and expanded, the counts compared.
 */
import { dryRunCampaign, DRY_RUN_MAX_MEMBERS, type CampaignDryRunDependencies } from '../../../shared/campaigns/campaign-dry-run';
import { ORG } from '../../support/broadcast-fakes';
import { bsuidMember, campaignKit, createCampaign, drainExpansions, launch, member, seedAudience, type CampaignKit } from '../../support/campaign-expander-kit';

const caller = { organizationId: ORG };
const dryRunPorts = (kit: CampaignKit): CampaignDryRunDependencies => ({ ...kit.expander, members: kit.members });

/** 1,200 + 400 members, 300 in both; 20 without first_name (no fallback); one opted out; 10 in the excluded audience; 2 BSUIDs, one paired with a listed number. */
function seed(kit: CampaignKit): void {
  const a = Array.from({ length: 1200 }, (_, index) => (index < 20 ? member(index, {}) : member(index)));
  const b = [...Array.from({ length: 400 }, (_, offset) => member(900 + offset)), bsuidMember('IN.paired'), bsuidMember('IN.alone')];
  seedAudience(kit, 'aud_a', a);
  seedAudience(kit, 'aud_b', b);
  seedAudience(
    kit,
    'aud_x',
    Array.from({ length: 10 }, (_, offset) => member(100 + offset)),
  );
  kit.pairs.set('IN.paired', { userId: 'IN.paired', phoneNumber: '919800000050' } as never);
  kit.optOuts.optedOut.add(`${ORG}|919800000500`);
}

describe('dryRunCampaign', () => {
  it('counts members, duplicates, exclusions, opt-outs and missing attributes exactly as the expansion then does, writing nothing', async () => {
    const kit = campaignKit();
    seed(kit);
    await createCampaign(kit, {
      audience: { audienceIds: ['aud_a', 'aud_b'], excludeAudienceIds: ['aud_x'] },
      values: { templateParams: [{ attribute: 'first_name' }, 'SPRING25'] },
    });
    const result = await dryRunCampaign(dryRunPorts(kit), caller, 'cmp_spring');
    expect(result.audience).toEqual({ members: 1602, duplicates: 301, optedOut: 1, excluded: 10, filteredOut: 0, missingAttribute: 20, invalid: 0 });
    expect(result.sendable).toBe(1602 - 301 - 1 - 10 - 20);
    expect(result).toMatchObject({ estimated: false, membersRead: 1602, messagingLimit: { tier: expect.any(String) } });
    expect(result.sample).toHaveLength(3);
    expect(result.sample[0]).toMatchObject({
      type: 'template',
      template: {
        name: 'spring_sale',
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'P20' },
              { type: 'text', text: 'SPRING25' },
            ],
          },
        ],
      },
    });
    // Nothing written: no claim, no job, no checkpoint.
    expect(kit.claims.writes).toBe(0);
    expect((await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!.launchedAt).toBeUndefined();

    kit.expander.budget = { pages: 1_000 };
    await launch(kit);
    await drainExpansions(kit);
    const counts = (await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!.expansion!.counts;
    expect({ ...result.audience, sendable: result.sendable }).toEqual({
      members: counts.members,
      duplicates: counts.duplicates,
      optedOut: counts.optedOut,
      excluded: counts.excluded,
      filteredOut: counts.filteredOut,
      missingAttribute: counts.missingAttribute,
      invalid: counts.invalid,
      sendable: counts.sendable,
    });
  });

  it(`reads at most ${DRY_RUN_MAX_MEMBERS} members and scales the counts by the audiences' member counts (estimated)`, async () => {
    const kit = campaignKit();
    const many = Array.from({ length: DRY_RUN_MAX_MEMBERS + 10_000 }, (_, index) => member(index));
    seedAudience(kit, 'aud_a', many);
    await createCampaign(kit);
    const result = await dryRunCampaign(dryRunPorts(kit), caller, 'cmp_spring');
    expect(result.membersRead).toBe(DRY_RUN_MAX_MEMBERS);
    expect(result.estimated).toBe(true);
    expect(result.audience.members).toBe(DRY_RUN_MAX_MEMBERS + 10_000);
    expect(result.sendable).toBe(DRY_RUN_MAX_MEMBERS + 10_000);
  });
});
