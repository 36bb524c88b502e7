/**
 * The campaign expander on fakes: every eligible person exactly once with their own values, the
 * counts and the listed skips, under redelivery and a crash mid-page.
 */
import { CHUNK_SIZE } from '../../../shared/broadcast/broadcast-job';
import { MISSING_ATTRIBUTE, OPTED_OUT } from '../../../shared/sending/failure-reasons';
import { ORG } from '../../support/broadcast-fakes';
import {
  bsuidMember,
  campaignKit,
  createCampaign,
  drainExpansions,
  launch,
  member,
  queuedIndexesByRecipient,
  seedAudience,
  type CampaignKit,
} from '../../support/campaign-expander-kit';

const range = (from: number, count: number) => Array.from({ length: count }, (_, offset) => from + offset);

/** 2,500 in A, 1,200 in B, 300 in both; 50 of A without first_name; one opted out; 10 BSUIDs in B, 5 paired with numbers of A. */
function seedIssueAudiences(kit: CampaignKit): void {
  const a = range(0, 2500).map((index) => (index < 50 ? member(index, {}) : member(index)));
  const b = [...range(2200, 1190).map((index) => member(index)), ...range(0, 10).map((n) => bsuidMember(`IN.user${n}`))];
  seedAudience(kit, 'aud_a', a);
  seedAudience(kit, 'aud_b', b);
  for (const n of range(0, 5)) kit.pairs.set(`IN.user${n}`, { phoneNumber: member(1000 + n).to, userId: `IN.user${n}`, at: '2026-05-01T00:00:00.000Z' });
  kit.optOuts.optedOut.add(`${ORG}|${member(60).to}`);
}

describe('the campaign expander', () => {
  it('reaches every eligible person exactly once, with their own values; counts and listed skips match', async () => {
    const kit = campaignKit();
    seedIssueAudiences(kit);
    await createCampaign(kit, { audience: { audienceIds: ['aud_a', 'aud_b'] } });
    const launched = await launch(kit);
    expect(launched.state).toBe('LAUNCHING');
    const outcomes = await drainExpansions(kit);
    expect(outcomes.at(-1)).toBe('done');

    const byTo = queuedIndexesByRecipient(kit.queue.messages);
    // 2,500 + 1,190 − 300 numbers + 10 BSUIDs − 5 paired: 3,395 people; 50 without first_name get the fallback; one opted out.
    expect(byTo.size).toBe(3394);
    expect([...byTo.values()].every((indexes) => indexes.size === 1)).toBe(true);
    expect(byTo.has(member(60).to)).toBe(false);
    for (const n of range(0, 5)) expect(byTo.has(`IN.user${n}`)).toBe(false);
    const parameters = new Map(kit.queue.messages.flatMap((message) => message.recipients.map((recipient) => [recipient.to, recipient.parameters] as const)));
    expect(parameters.get(member(7).to)).toEqual(['there', 'SPRING25']);
    expect(parameters.get(member(2300).to)).toEqual(['P2300', 'SPRING25']);
    expect(parameters.get('IN.user7')).toEqual(['IN.user7', 'SPRING25']);

    const campaign = (await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!;
    expect(campaign.expansion).toMatchObject({ status: 'done', audienceIndex: 2 });
    expect(campaign.expansion!.counts).toEqual({
      members: 3700,
      duplicates: 305,
      excluded: 0,
      filteredOut: 0,
      optedOut: 1,
      missingAttribute: 0,
      invalid: 0,
      sendable: 3394,
      heldOut: 0,
    });
    const job = (await kit.broadcasts.getJob(campaign.jobId!))!;
    expect(job).toMatchObject({
      campaignId: 'cmp_spring',
      expansion: 'done',
      totalRecipients: 3395,
      totalChunks: Math.ceil(campaign.expansion!.nextIndex / CHUNK_SIZE),
    });
    expect(kit.published.map((event) => event.type)).toEqual(['campaign.started']);
  });

  it('lists the skipped FAILED with their reason, and counts them', async () => {
    const kit = campaignKit();
    seedAudience(kit, 'aud_a', [member(1, {}), member(2), member(3)]);
    kit.optOuts.optedOut.add(`${ORG}|${member(3).to}`);
    await createCampaign(kit, { values: { templateParams: [{ attribute: 'first_name' }, 'SPRING25'] } });
    await launch(kit);
    await drainExpansions(kit);
    const campaign = (await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!;
    expect(campaign.expansion!.counts).toMatchObject({ members: 3, missingAttribute: 1, optedOut: 1, sendable: 1 });
    const records = await kit.broadcasts.readChunkRecipients(campaign.jobId!, 0);
    expect(records.listed?.map((listed) => listed.toPhoneNumber)).toEqual([member(1).toPhoneNumber, member(2).toPhoneNumber, member(3).toPhoneNumber]);
    expect(records.ledger.map(({ entry }) => [entry.index, entry.status, entry.failureReasonCode])).toEqual([
      [0, 'FAILED', MISSING_ATTRIBUTE],
      [2, 'FAILED', OPTED_OUT],
    ]);
    expect(queuedIndexesByRecipient(kit.queue.messages)).toEqual(new Map([[member(2).to, new Set([1])]]));
  });

  it('drops the excluded and the filtered out before any send, and counts them', async () => {
    const kit = campaignKit();
    seedAudience(kit, 'aud_a', [member(1, { first_name: 'A' }, ['vip']), member(2, { first_name: 'B' }, ['vip']), member(3, { first_name: 'C' })]);
    seedAudience(kit, 'aud_x', [member(2)]);
    await createCampaign(kit, { audience: { audienceIds: ['aud_a'], excludeAudienceIds: ['aud_x'], filter: { tags: { any: ['vip'] } } } });
    await launch(kit);
    await drainExpansions(kit);
    expect([...queuedIndexesByRecipient(kit.queue.messages).keys()]).toEqual([member(1).to]);
    expect((await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!.expansion!.counts).toMatchObject({ members: 3, excluded: 1, filteredOut: 1, sendable: 1 });
  });

  it('holds exactly once when every message is delivered twice', async () => {
    const kit = campaignKit();
    seedIssueAudiences(kit);
    await createCampaign(kit, { audience: { audienceIds: ['aud_a', 'aud_b'] } });
    await launch(kit);
    const outcomes = await drainExpansions(kit, { deliverTwice: true });
    expect(outcomes).toContain('superseded');
    const byTo = queuedIndexesByRecipient(kit.queue.messages);
    expect(byTo.size).toBe(3394);
    expect([...byTo.values()].every((indexes) => indexes.size === 1)).toBe(true);
    expect((await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!.expansion!.counts.sendable).toBe(3394);
  });

  it('resumes a crash mid-page (after its chunk was queued, before the checkpoint) without sending anyone twice', async () => {
    const kit = campaignKit();
    seedIssueAudiences(kit);
    await createCampaign(kit, { audience: { audienceIds: ['aud_a', 'aud_b'] } });
    await launch(kit);
    let failures = 0;
    const saveExpansion = kit.campaigns.saveExpansion.bind(kit.campaigns);
    // Every third checkpoint fails once: the page's chunk is queued, its checkpoint lost.
    const crashing = {
      ...kit.expander,
      campaigns: {
        getCampaign: kit.campaigns.getCampaign.bind(kit.campaigns),
        saveExpansion: async (...args: Parameters<typeof saveExpansion>) => {
          if (args[2].nextIndex > 0 && args[2].nextIndex % 3000 === 0 && failures < 2 && !crashed.has(args[2].nextIndex)) {
            crashed.add(args[2].nextIndex);
            failures += 1;
            throw new Error('store down');
          }
          return saveExpansion(...args);
        },
      },
    };
    const crashed = new Set<number>();
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 20 && kit.expansions.queued.length > 0; attempt += 1) {
      const entry = kit.expansions.queued[0]!;
      try {
        outcomes.push(...(await drainExpansions(kit, { dependencies: crashing })));
      } catch {
        // The message comes back (SQS redelivers what failed).
        if (!kit.expansions.queued.includes(entry)) kit.expansions.queued.unshift(entry);
      }
    }
    expect(failures).toBeGreaterThan(0);
    expect(outcomes.at(-1)).toBe('done');
    const byTo = queuedIndexesByRecipient(kit.queue.messages);
    expect(byTo.size).toBe(3394);
    expect([...byTo.values()].every((indexes) => indexes.size === 1)).toBe(true);
  });

  it('waits while Meta has the template paused, and goes on once it is approved again', async () => {
    const kit = campaignKit();
    seedAudience(kit, 'aud_a', [member(1), member(2)]);
    await createCampaign(kit);
    await launch(kit);
    const { CAMPAIGN_TEMPLATE } = await import('../../support/campaign-expander-kit');
    kit.expander.templates = { templatesOf: async () => [{ ...CAMPAIGN_TEMPLATE, status: 'PAUSED' }] };
    expect(await drainExpansions(kit)).toEqual(['paused']);
    expect(kit.queue.messages).toHaveLength(0);
    expect(kit.expansions.queued[0]!.delaySeconds).toBe(300);
    kit.expander.templates = { templatesOf: async () => [CAMPAIGN_TEMPLATE] };
    kit.clock.advanceBy(300_000);
    expect(await drainExpansions(kit)).toEqual(['done']);
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(2);
  });

  it('stops when the job is cancelled, closing it with what was queued', async () => {
    const kit = campaignKit();
    seedAudience(
      kit,
      'aud_a',
      range(0, 5000).map((index) => member(index)),
    );
    await createCampaign(kit);
    const { jobId } = await launch(kit);
    kit.expander.budget = { pages: 2 };
    const [first] = kit.expansions.queued.splice(0, 1);
    const { expandCampaign } = await import('../../../shared/campaigns/expand-campaign');
    expect(await expandCampaign(kit.expander, first!.message)).toBe('continued');
    await kit.broadcasts.cancelJob(jobId, kit.clock.now());
    expect(await drainExpansions(kit)).toEqual(['cancelled']);
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(2000);
    expect(await kit.broadcasts.getJob(jobId)).toMatchObject({ expansion: 'stopped', totalRecipients: 2000, totalChunks: 2 });
  });
});
