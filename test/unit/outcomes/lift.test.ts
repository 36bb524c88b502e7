/** The lift over a campaign's holdout: the arithmetic, the cost per incremental reply, and when it is reliable; shown in the campaign view. */
import { campaignViewOf, holdoutViewOf } from '../../../shared/campaigns/campaign-view';
import type { Campaign } from '../../../shared/campaigns/campaign';
import type { BroadcastJob, JobSummary } from '../../../shared/broadcast/broadcast-job';
import { liftOf, twoProportionZ } from '../../../shared/outcomes/lift';
import { emptyOutcomeCounts } from '../../../shared/outcomes/outcome-facts';

const counts = (replied: number, heldOut: number, inbound: number) => ({ ...emptyOutcomeCounts(), replied, holdout: { heldOut, inbound } });

describe('liftOf', () => {
  it('gives the rates to 4 decimals, the incremental replies and their cost', () => {
    expect(liftOf(counts(90, 100, 2), 900, { amount: '45.00' })).toEqual({
      sentReplyRate: 0.1,
      holdoutInboundRate: 0.02,
      incrementalReplies: 72,
      costPerIncrementalReply: '0.625',
      heldOut: 100,
      holdoutInbound: 2,
      sent: 900,
      replied: 90,
      reliable: true,
    });
    const thirds = liftOf(counts(1, 3, 1), 3);
    expect(thirds).toMatchObject({ sentReplyRate: 0.3333, holdoutInboundRate: 0.3333, incrementalReplies: 0 });
  });

  it('leaves out the cost per incremental reply without a cost or without anything incremental', () => {
    expect(liftOf(counts(90, 100, 2), 900)).not.toHaveProperty('costPerIncrementalReply');
    expect(liftOf(counts(10, 100, 5), 200, { amount: '10.00' })).toMatchObject({ incrementalReplies: 0 });
    expect(liftOf(counts(10, 100, 5), 200, { amount: '10.00' })).not.toHaveProperty('costPerIncrementalReply');
    expect(liftOf(counts(5, 100, 10), 200, { amount: '10.00' })).toMatchObject({ incrementalReplies: -15 });
    expect(liftOf(counts(5, 100, 10), 200, { amount: '10.00' })).not.toHaveProperty('costPerIncrementalReply');
  });

  it('reads nothing from empty groups', () => {
    expect(liftOf(counts(0, 0, 0), 0)).toEqual({
      sentReplyRate: 0,
      holdoutInboundRate: 0,
      incrementalReplies: 0,
      heldOut: 0,
      holdoutInbound: 0,
      sent: 0,
      replied: 0,
      reliable: false,
    });
  });

  it('is reliable only with 100 in each group, 10 responses together and a difference at 95 % confidence', () => {
    // The same rates, too few held out.
    expect(liftOf(counts(90, 99, 2), 900).reliable).toBe(false);
    // Enough people, too few responses to judge.
    expect(liftOf(counts(6, 1000, 0), 1000).reliable).toBe(false);
    // Enough of everything, but the rates are close: chance explains it.
    expect(liftOf(counts(30, 1000, 25), 1000).reliable).toBe(false);
    expect(liftOf(counts(30, 1000, 10), 1000).reliable).toBe(true);
    // A campaign that lowered the inbound rate is a reliable (negative) lift too.
    expect(liftOf(counts(5, 1000, 30), 1000)).toMatchObject({ reliable: true, incrementalReplies: -25 });
  });

  it('z statistic of two proportions with the pooled rate', () => {
    expect(twoProportionZ(30, 1000, 10, 1000)).toBeCloseTo(3.194, 3);
    expect(twoProportionZ(0, 1000, 0, 1000)).toBe(0);
    expect(twoProportionZ(1, 0, 0, 10)).toBe(0);
  });
});

describe('the campaign view of a holdout', () => {
  const campaign: Campaign = {
    campaignId: 'cmp_1',
    organizationId: 'org_1',
    name: 'Spring',
    fromPhoneNumber: '15550001111',
    template: { name: 'spring_sale', language: 'en_US', category: 'MARKETING' },
    audience: { audienceIds: ['contacts'] },
    values: {},
    createdAt: '2026-05-04T09:00:00.000Z',
    updatedAt: '2026-05-04T09:00:00.000Z',
  };
  const summary = {
    sent: 900,
    failed: 0,
    unknown: 0,
    pending: 0,
    chunksDone: 1,
    chunksTotal: 1,
    failuresByReason: {},
    delivered: 900,
    read: 0,
    unconfirmed: 0,
    heldOut: 100,
  } as JobSummary;
  const reading = { job: { jobId: 'pub_1' } as BroadcastJob, status: 'PROCESSING' as const, summary, outcomes: counts(90, 100, 2) };

  it('shows the window (72 by default), the holdout and the lift with its cost', () => {
    expect(holdoutViewOf(campaign, undefined, null)).toEqual({ attributionWindowHours: 72 });
    expect(holdoutViewOf({ ...campaign, holdout: { percent: 10 }, attributionWindowHours: 24 }, undefined, null)).toEqual({
      attributionWindowHours: 24,
      holdout: { percent: 10 },
    });
    const cost = { currency: 'USD', billed: 900, amount: '45.00', byCategory: {} };
    const view = campaignViewOf(
      { ...campaign, holdout: { percent: 10 }, launchedAt: '2026-05-04T09:05:00.000Z', jobId: 'pub_1' },
      reading,
      cost,
      new Date('2026-05-04T10:00:00.000Z'),
    );
    expect(view).toMatchObject({
      holdout: { percent: 10 },
      attributionWindowHours: 72,
      lift: { sent: 900, replied: 90, heldOut: 100, holdoutInbound: 2, incrementalReplies: 72, costPerIncrementalReply: '0.625', reliable: true },
    });
  });

  it('has no lift without a holdout', () => {
    const view = campaignViewOf({ ...campaign, launchedAt: '2026-05-04T09:05:00.000Z', jobId: 'pub_1' }, reading, null, new Date('2026-05-04T10:00:00.000Z'));
    expect(view).not.toHaveProperty('lift');
    expect(view).not.toHaveProperty('holdout');
  });
});
