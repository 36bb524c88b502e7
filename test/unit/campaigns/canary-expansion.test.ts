/**
 * The expander's canary and halt thresholds on fakes (shared/campaigns/canary-watch.ts): only the
 * slice is appended, observed after it settled, then judged; a halt pauses the job (`pausedBy:
 * "canary"`, CANARY_HALTED, the figures) and announces it; a person's resume lets the rest go and is
 * not judged again on the slice's figures; `haltIf` without a canary halts a running campaign once
 * enough was sent. docs/CAMPAIGNS.md "Canary and halt thresholds".
 */
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import type { Campaign } from '../../../shared/campaigns/campaign';
import { ORG } from '../../support/broadcast-fakes';
import {
  CAMPAIGN_TEMPLATE,
  campaignKit,
  createCampaign,
  drainExpansions,
  launch,
  member,
  queuedIndexesByRecipient,
  seedAudience,
  type CampaignKit,
} from '../../support/campaign-expander-kit';

const MINUTE = 60_000;
const range = (from: number, count: number) => Array.from({ length: count }, (_, offset) => from + offset);

/** What the chunk workers and Meta would leave: each queued recipient not yet settled SENT, or FAILED with Meta's code; chunks reconciled when `settle`. */
async function sendQueued(kit: CampaignKit, failed: ReadonlyMap<number, string> = new Map(), settle = true, limit = Infinity): Promise<void> {
  const now = kit.clock.now();
  let done = 0;
  for (const message of kit.queue.messages) {
    for (const recipient of message.recipients) {
      if (done >= limit) break;
      const claim = await kit.broadcasts.claimRecipient(message.jobId, message.chunkIndex, recipient.index, recipient.to, now);
      if (!claim.claimed) continue;
      done += 1;
      const reason = failed.get(recipient.index);
      const entry = {
        index: recipient.index,
        to: recipient.to,
        attempts: 1,
        updatedAt: now.toISOString(),
        ...(reason === undefined ? { status: 'SENT' as const } : { status: 'FAILED' as const, failureReasonCode: reason }),
      };
      await kit.broadcasts.recordOutcomes(message.jobId, message.chunkIndex, [entry]);
      kit.broadcasts.tallyCodes.set(`${message.jobId}#T#${recipient.index}`, reason === undefined ? tallyCodes.sent : tallyCodes.failedOnSend(reason));
    }
    if (settle) await kit.broadcasts.reconcileChunk(message.jobId, message.chunkIndex, now);
  }
}

async function started(kit: CampaignKit, sendRules: Campaign['sendRules'], people = 300): Promise<Campaign> {
  seedAudience(
    kit,
    'aud_a',
    range(0, people).map((index) => member(index)),
  );
  await createCampaign(kit, { sendRules });
  await launch(kit);
  await drainExpansions(kit);
  return (await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!;
}

const stoppedMarketing = (indexes: number[]) => new Map(indexes.map((index) => [index, '131050']));

describe('a canary', () => {
  it('appends only the slice, observes it once settled, halts over its threshold and a resume lets the rest go, judged no more on the slice', async () => {
    const kit = campaignKit();
    const haltIf = { optOutRate: 0.01 };
    let campaign = await started(kit, { canary: { count: 100, observeMinutes: 30, haltIf }, haltIf });
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(100);
    expect(campaign.expansion).toMatchObject({ canary: { state: 'observing', slice: 100 }, counts: { sendable: 100 } });
    expect(campaign.expansion!.canary!.observeUntil).toBeUndefined();

    // Four of the slice stopped marketing messages (131050): 4 %.
    await sendQueued(kit, stoppedMarketing([3, 10, 20, 30]));
    kit.expansions.queued.push({ message: { version: 1, organizationId: ORG, campaignId: 'cmp_spring' }, delaySeconds: 0 });
    await drainExpansions(kit);
    campaign = (await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!;
    expect(campaign.expansion!.canary!.observeUntil).toBe(new Date(kit.clock.now().getTime() + 30 * MINUTE).toISOString());
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(100);

    kit.clock.set(new Date(kit.clock.now().getTime() + 31 * MINUTE));
    expect(await drainExpansions(kit)).toContain('paused');
    const figures = {
      stage: 'canary',
      measured: { optOutRate: 0.04, failureRate: 0.04, blockRate: 0, qualityDrop: false },
      thresholds: haltIf,
      exceeded: ['optOutRate'],
      sent: 100,
      counts: { optOuts: 4, failures: 4, blocks: 0 },
    };
    const control = (await kit.broadcasts.readJobControl(campaign.jobId!))!;
    expect(control.pause).toEqual({ pausedAt: kit.clock.now().toISOString(), reason: 'CANARY_HALTED', pausedBy: 'canary', halt: figures });
    expect(kit.published.filter((event) => event.type !== 'campaign.started').map((event) => [event.type, (event.data as { pause: unknown }).pause])).toEqual([
      ['job.paused', { reason: 'CANARY_HALTED', since: kit.clock.now().toISOString(), failsAt: null, pausedBy: 'canary', halt: figures }],
      ['campaign.paused', { reason: 'CANARY_HALTED', since: kit.clock.now().toISOString(), failsAt: null, pausedBy: 'canary', halt: figures }],
    ]);
    campaign = (await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!;
    expect(campaign.expansion!.canary).toMatchObject({ state: 'halted', verdict: { ...figures, at: kit.clock.now().toISOString() } });

    kit.clock.set(new Date(kit.clock.now().getTime() + MINUTE));
    expect(await kit.broadcasts.resumeJob(campaign.jobId!, control.pause!.pausedAt, kit.clock.now())).toBe(true);
    kit.expansions.queued.push({ message: { version: 1, organizationId: ORG, campaignId: 'cmp_spring' }, delaySeconds: 0 });
    await drainExpansions(kit);
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(300);
    // 150 of the rest sent well while the job runs: 4 of 250 would be 1.6 % over the whole campaign, but only what came after the halt counts (0 of 150).
    await sendQueued(kit, new Map(), false, 150);
    kit.clock.set(new Date(kit.clock.now().getTime() + 10 * MINUTE));
    const outcomes = await drainExpansions(kit);
    expect(outcomes).toContain('watching');
    expect(outcomes).not.toContain('paused');
    await sendQueued(kit);
    kit.clock.set(new Date(kit.clock.now().getTime() + 10 * MINUTE));
    expect(new Set(await drainExpansions(kit))).toEqual(new Set(['done']));
    expect((await kit.broadcasts.readJobControl(campaign.jobId!))!.pause).toBeUndefined();
    expect(kit.published.filter((event) => event.type === 'campaign.paused')).toHaveLength(1);
    campaign = (await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!;
    expect(campaign.expansion).toMatchObject({ status: 'done', watch: { baseline: { sent: 100, optOuts: 4, failures: 4, blocks: 0 } } });
  });

  it('within its thresholds goes on by itself', async () => {
    const kit = campaignKit();
    await started(kit, { canary: { count: 50, observeMinutes: 10, haltIf: { optOutRate: 0.05, blockRate: 0.05 } } });
    await sendQueued(kit, new Map([[7, 'INVALID_PHONE_NUMBER']]));
    kit.expansions.queued.push({ message: { version: 1, organizationId: ORG, campaignId: 'cmp_spring' }, delaySeconds: 0 });
    await drainExpansions(kit);
    kit.clock.set(new Date(kit.clock.now().getTime() + 11 * MINUTE));
    await drainExpansions(kit);
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(300);
    const campaign = (await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!;
    expect(campaign.expansion).toMatchObject({
      status: 'done',
      canary: { state: 'passed', slice: 50, verdict: { measured: { optOutRate: 0, failureRate: 0.02, blockRate: 0.02 }, exceeded: [], sent: 50 } },
    });
  });
});

describe('the slice', () => {
  it('is `percent` of the audience’s members at the launch; a drop of the template’s quality since the launch halts it', async () => {
    const kit = campaignKit();
    let quality = 'GREEN';
    kit.expander.templates.templatesOf = async () => [{ ...CAMPAIGN_TEMPLATE, quality_score: { score: quality } }];
    kit.members.seed(
      { audienceId: 'aud_a', organizationId: ORG, name: 'A', memberCount: 400, createdAt: '2026-05-01T00:00:00.000Z', updatedAt: '2026-05-01T00:00:00.000Z' },
      range(0, 400).map((index) => member(index)),
    );
    await createCampaign(kit, { sendRules: { canary: { percent: 10, observeMinutes: 5, haltIf: { optOutRate: 0.5, qualityDrop: true } } } });
    await launch(kit);
    await drainExpansions(kit);
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(40);
    const campaign = (await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!;
    expect(campaign.expansion).toMatchObject({ canary: { state: 'observing', slice: 40 }, counts: { members: 40, sendable: 40 }, watch: { quality: 'GREEN' } });
    await sendQueued(kit);
    quality = 'YELLOW';
    kit.clock.set(new Date(kit.clock.now().getTime() + 6 * MINUTE));
    kit.expansions.queued.push({ message: { version: 1, organizationId: ORG, campaignId: 'cmp_spring' }, delaySeconds: 0 });
    await drainExpansions(kit);
    kit.clock.set(new Date(kit.clock.now().getTime() + 6 * MINUTE));
    expect(await drainExpansions(kit)).toContain('paused');
    expect((await kit.broadcasts.readJobControl(campaign.jobId!))!.pause!.halt).toMatchObject({
      measured: { optOutRate: 0, qualityDrop: true },
      exceeded: ['qualityDrop'],
      sent: 40,
    });
  });
});

describe('haltIf without a canary', () => {
  it('halts a running campaign once the minimum sample was sent, and not before', async () => {
    const kit = campaignKit();
    const campaign = await started(kit, { haltIf: { failureRate: 0.05 } });
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(300);
    // 150 sent, 20 failed: below the 200-send minimum, nothing is judged.
    await sendQueued(kit, new Map(range(0, 20).map((index) => [index, '131049'])), false, 150);
    kit.clock.set(new Date(kit.clock.now().getTime() + 6 * MINUTE));
    expect(await drainExpansions(kit)).not.toContain('paused');
    await sendQueued(kit, new Map(), false, 100);
    kit.clock.set(new Date(kit.clock.now().getTime() + 6 * MINUTE));
    expect(await drainExpansions(kit)).toContain('paused');
    expect((await kit.broadcasts.readJobControl(campaign.jobId!))!.pause).toMatchObject({
      reason: 'CANARY_HALTED',
      pausedBy: 'canary',
      halt: { stage: 'running', measured: { failureRate: 0.08 }, exceeded: ['failureRate'], sent: 250, counts: { failures: 20 } },
    });
  });
});
