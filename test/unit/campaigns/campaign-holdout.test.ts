/**
 * A campaign's holdout: the deterministic draw, the create body's rule, and the expander on fakes
 * (the held out listed HELD_OUT, never queued, reserving no messaging limit, with a held-out touch).
 */
import { CHUNK_SIZE, summarizeJob, type BroadcastJob } from '../../../shared/broadcast/broadcast-job';
import { recipientRow } from '../../../shared/broadcast/list-recipients';
import { holdoutDrawOf, isHeldOut } from '../../../shared/campaigns/campaign-holdout';
import { campaignRequestSchema } from '../../../shared/campaigns/campaign-request.schema';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { parseRequest } from '../../../shared/http/validation';
import { ORG, SENDER } from '../../support/broadcast-fakes';
import {
  campaignKit,
  createCampaign,
  drainExpansions,
  launch,
  member,
  queuedIndexesByRecipient,
  seedAudience,
  type CampaignKit,
} from '../../support/campaign-expander-kit';

const people = (count: number) => Array.from({ length: count }, (_, index) => member(index));

describe('the holdout draw', () => {
  it('is the same for the same campaign and person, and another campaign draws afresh', () => {
    expect(holdoutDrawOf('cmp_a', '919800000001')).toBe(holdoutDrawOf('cmp_a', '919800000001'));
    const keys = people(1000).map((person) => person.to);
    const inA = keys.filter((key) => isHeldOut({ percent: 10 }, 'cmp_a', key));
    const inB = keys.filter((key) => isHeldOut({ percent: 10 }, 'cmp_b', key));
    expect(inA).not.toEqual(inB);
    expect(isHeldOut(undefined, 'cmp_a', keys[0]!)).toBe(false);
  });

  it('holds out about the percent of a 10,000-member audience', () => {
    const keys = people(10_000).map((person) => person.to);
    for (const percent of [0.5, 5, 10, 50]) {
      const held = keys.filter((key) => isHeldOut({ percent }, 'cmp_spring', key)).length;
      // Binomial: within 4 standard deviations of 10,000 × percent.
      const expected = 100 * percent;
      expect(Math.abs(held - expected)).toBeLessThan(4 * Math.sqrt(expected * (1 - percent / 100)));
    }
  });
});

describe('holdout and attributionWindowHours of the create body', () => {
  const base = {
    name: 'Spring',
    fromPhoneNumber: SENDER.phoneNumber,
    templateName: 'spring_sale',
    templateLanguage: 'en_US',
    templateType: 'MARKETING',
    audience: { audienceIds: ['contacts'] },
  };
  const messageOf = (fields: Record<string, unknown>): string | undefined => {
    try {
      parseRequest(campaignRequestSchema, { ...base, ...fields });
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('takes a percent above 0, at most 50, with at most one decimal, and a window of 1 to 720 whole hours', () => {
    expect(messageOf({ holdout: { percent: 5 }, attributionWindowHours: 24 })).toBeUndefined();
    expect(messageOf({ holdout: { percent: 0.1 } })).toBeUndefined();
    expect(messageOf({ holdout: { percent: 50 } })).toBeUndefined();
    expect(messageOf({ holdout: { percent: 0 } })).toMatch(/^holdout\.percent must be more than 0/);
    expect(messageOf({ holdout: { percent: 50.5 } })).toMatch(/^holdout\.percent must be at most 50/);
    expect(messageOf({ holdout: { percent: 2.25 } })).toMatch(/^holdout\.percent must have at most one decimal/);
    expect(messageOf({ holdout: { percent: '5' } })).toMatch(/^holdout\.percent must be a number/);
    expect(messageOf({ holdout: { percent: 5, seed: 1 } })).toMatch(/^holdout/);
    expect(messageOf({ attributionWindowHours: 0 })).toMatch(/^attributionWindowHours must be at least 1/);
    expect(messageOf({ attributionWindowHours: 721 })).toMatch(/^attributionWindowHours must be at most 720/);
    expect(messageOf({ attributionWindowHours: 1.5 })).toMatch(/^attributionWindowHours must be a whole number of hours/);
  });
});

async function heldOutOf(kit: CampaignKit, jobId: string, chunks: number) {
  const statuses = new Map<string, string>();
  for (let chunk = 0; chunk < chunks; chunk += 1) {
    const records = await kit.broadcasts.readChunkRecipients(jobId, chunk);
    const ledger = new Map(records.ledger.map((record) => [record.entry.index, record]));
    for (const listed of records.listed ?? []) {
      statuses.set(
        `${listed.countryCode}${listed.toPhoneNumber}`,
        recipientRow(listed, ledger.get(listed.index), { now: kit.clock.now(), unconfirmedAfterMs: 86_400_000 }).status,
      );
    }
  }
  return statuses;
}

describe('the expander with a holdout', () => {
  it('never sends the held out, lists them HELD_OUT with a held-out touch, exactly once under redelivery', async () => {
    const kit = campaignKit();
    seedAudience(kit, 'aud_a', people(2500));
    await createCampaign(kit, { holdout: { percent: 10 }, attributionWindowHours: 48 });
    const { jobId } = await launch(kit);
    expect(await kit.broadcasts.getJob(jobId)).toMatchObject({ attributionWindowHours: 48 });
    await drainExpansions(kit, { deliverTwice: true });

    const queued = queuedIndexesByRecipient(kit.queue.messages);
    const expectedHeld = people(2500)
      .filter((person) => isHeldOut({ percent: 10 }, 'cmp_spring', person.to))
      .map((person) => person.to);
    expect(expectedHeld.length).toBeGreaterThan(200);
    expect(queued.size).toBe(2500 - expectedHeld.length);
    expect([...queued.values()].every((indexes) => indexes.size === 1)).toBe(true);
    for (const to of expectedHeld) expect(queued.has(to)).toBe(false);

    const campaign = (await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!;
    expect(campaign.expansion!.counts).toMatchObject({ members: 2500, sendable: 2500 - expectedHeld.length, heldOut: expectedHeld.length });
    expect(await kit.broadcasts.getJob(jobId)).toMatchObject({ totalRecipients: 2500, expansion: 'done' });

    const statuses = await heldOutOf(kit, jobId, Math.ceil(campaign.expansion!.nextIndex / CHUNK_SIZE));
    const listedHeld = [...statuses].filter(([, status]) => status === 'HELD_OUT').map(([to]) => to);
    expect(listedHeld.sort()).toEqual([...expectedHeld].sort());

    const touch = await kit.touches.latestTouch(ORG, [expectedHeld[0]!]);
    expect(touch).toMatchObject({ jobId, campaignId: 'cmp_spring', windowHours: 48, heldOut: true, at: kit.clock.now().toISOString() });
    expect(await kit.touches.latestTouch(ORG, [[...queued.keys()][0]!])).toBeUndefined();
  });

  it('reserves no messaging limit for the held out', async () => {
    const kit = campaignKit('2026-05-04T10:00:00.000Z');
    kit.messagingTiers.tiers.set(SENDER.phoneNumberId, 'TIER_250');
    seedAudience(kit, 'aud_a', people(300));
    await createCampaign(kit, { holdout: { percent: 30 } });
    await launch(kit);
    // 300 members, about 90 held out: the sends fit the limit of 250, so the campaign never waits.
    expect(await drainExpansions(kit)).not.toContain('waiting');
    const counts = (await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!.expansion!.counts;
    expect(counts.sendable + counts.heldOut).toBe(300);
    expect(queuedIndexesByRecipient(kit.queue.messages).size).toBe(counts.sendable);
    expect(counts.sendable).toBeLessThanOrEqual(250);
  });
});

describe('a job with held-out recipients', () => {
  const job = { jobId: 'pub_1', kind: 'template', totalRecipients: 4, totalChunks: 1, chunkSize: CHUNK_SIZE, expansion: 'done' } as BroadcastJob;
  const chunk = { chunkIndex: 0, recipientCount: 4, sent: 3, failed: 0, unknown: 0, failuresByReason: {}, started: true, done: true };
  const tally = (codes: string[]) => ({ codes: codes.map((code, index) => [index, code] as const), now: new Date(), unconfirmedAfterMs: 86_400_000 });

  it('counts them neither sent, failed nor pending, and completes on the others', () => {
    const { status, summary } = summarizeJob(job, [chunk], tally(['3D', '1S', '4R', tallyCodes.heldOut]));
    expect(summary).toMatchObject({ sent: 3, failed: 0, pending: 0, heldOut: 1 });
    expect(status).toBe('COMPLETED');
  });

  it('is still pending for its unsent and completes with failures on a failure', () => {
    expect(summarizeJob(job, [{ ...chunk, done: false, sent: 2 }], tally(['1S', '1S', tallyCodes.heldOut])).summary.pending).toBe(1);
    const failed = summarizeJob(job, [{ ...chunk, sent: 2, failed: 1 }], tally(['1S', '1S', '9X:131026', tallyCodes.heldOut]));
    expect(failed.status).toBe('COMPLETED_WITH_FAILURES');
  });
});
