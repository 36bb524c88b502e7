/**
 * A campaign's state and totals (shared/campaigns/campaign-view.ts): derived from the campaign's
 * expansion and its job's reading, never finished before the expansion is done; opt-outs and
 * skipped members counted apart from failures.
 */
import { newJob } from '../../../shared/broadcast/job-fan-out';
import type { JobStatus, JobSummary } from '../../../shared/broadcast/broadcast-job';
import type { Campaign, ExpansionProgress } from '../../../shared/campaigns/campaign';
import { emptyExpansionCounts } from '../../../shared/campaigns/campaign';
import { campaignStateOf, campaignTotalsOf, campaignViewOf, readCampaignView, type CampaignJobReading } from '../../../shared/campaigns/campaign-view';
import { InMemoryBroadcastRepository, ORG, SENDER } from '../../support/broadcast-fakes';
import { draftCampaign } from '../../support/contracts/campaign-store.contract';

const NOW = new Date('2026-12-01T12:00:00.000Z');
const launchedAt = '2026-12-01T11:00:00.000Z';
const job = newJob(
  { kind: 'template', broadcastName: 'Spring sale', template: { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl_1' } },
  { jobId: 'pub_c1', organizationId: ORG, sender: SENDER, totalRecipients: 0, exposed: true, now: new Date(launchedAt) },
);
const summary = (fields: Partial<JobSummary> = {}): JobSummary => ({
  sent: 0,
  failed: 0,
  unknown: 0,
  pending: 0,
  chunksDone: 0,
  chunksTotal: 0,
  failuresByReason: {},
  delivered: 0,
  read: 0,
  unconfirmed: 0,
  ...fields,
});
const reading = (status: JobStatus, fields: Partial<JobSummary> = {}, jobFields: Record<string, unknown> = {}): CampaignJobReading => ({
  job: { ...job, ...jobFields } as typeof job,
  status,
  summary: summary(fields),
});
const expansion = (fields: Partial<ExpansionProgress> = {}): ExpansionProgress => ({
  status: 'running',
  audienceIndex: 0,
  nextIndex: 0,
  counts: emptyExpansionCounts(),
  startedAt: launchedAt,
  version: 0,
  ...fields,
});
const started = expansion({ nextIndex: 1000, counts: { ...emptyExpansionCounts(), members: 1000, sendable: 1000 }, version: 3 });
const launched = (fields: Partial<Campaign> = {}): Campaign => ({
  ...draftCampaign(ORG, 'cmp_v1'),
  launchedAt,
  jobId: 'pub_c1',
  expansion: expansion(),
  ...fields,
});

describe('campaignStateOf', () => {
  it('DRAFT until launched; SCHEDULED while its time has not come', () => {
    expect(campaignStateOf(draftCampaign(ORG, 'cmp_d'), undefined, NOW)).toBe('DRAFT');
    expect(campaignStateOf({ ...draftCampaign(ORG, 'cmp_d'), cancelledAt: '2026-12-01T11:00:00.000Z' }, undefined, NOW)).toBe('CANCELLED');
    expect(campaignStateOf(launched({ scheduledAt: '2026-12-02T09:00:00Z' }), reading('QUEUED_FOR_PROCESSING'), NOW)).toBe('SCHEDULED');
    expect(campaignStateOf(launched(), reading('SCHEDULED'), NOW)).toBe('SCHEDULED');
    expect(campaignStateOf(launched({ scheduledAt: '2026-12-01T11:30:00Z', expansion: started }), reading('PROCESSING'), NOW)).toBe('SENDING');
    // launch-campaign.ts: a scheduled campaign's first checkpoint waits until its time; that is no wait for the limit.
    const forSchedule = (scheduledAt: string) =>
      launched({ scheduledAt, expansion: expansion({ status: 'waiting', waitingUntil: new Date(scheduledAt).toISOString() }) });
    expect(campaignStateOf(forSchedule('2026-12-02T10:00:00+01:00'), reading('QUEUED_FOR_PROCESSING'), NOW)).toBe('SCHEDULED');
    expect(campaignStateOf(forSchedule('2026-12-01T11:59:00Z'), reading('QUEUED_FOR_PROCESSING'), NOW)).toBe('LAUNCHING');
    expect(campaignStateOf(forSchedule('2026-12-02T10:00:00Z'), reading('CANCELLED'), NOW)).not.toBe('SCHEDULED');
  });

  it('LAUNCHING before the expansion or the job has started, then SENDING', () => {
    expect(campaignStateOf(launched(), undefined, NOW)).toBe('LAUNCHING');
    expect(campaignStateOf(launched(), reading('QUEUED_FOR_PROCESSING'), NOW)).toBe('LAUNCHING');
    expect(campaignStateOf(launched({ expansion: started }), reading('QUEUED_FOR_PROCESSING'), NOW)).toBe('LAUNCHING');
    expect(campaignStateOf(launched({ expansion: started }), reading('PROCESSING'), NOW)).toBe('SENDING');
  });

  it('WAITING_FOR_LIMIT while the expansion waits; PAUSED when the job is', () => {
    expect(campaignStateOf(launched({ expansion: { ...started, status: 'waiting', waitingUntil: '2026-12-02T11:00:00Z' } }), reading('PROCESSING'), NOW)).toBe(
      'WAITING_FOR_LIMIT',
    );
    expect(campaignStateOf(launched({ expansion: started }), reading('PAUSED'), NOW)).toBe('PAUSED');
  });

  it('never finished before the expansion is done; the job’s final state after', () => {
    for (const status of ['COMPLETED', 'COMPLETED_WITH_FAILURES', 'FAILED'] as const) {
      expect(campaignStateOf(launched({ expansion: started }), reading(status), NOW)).toBe('SENDING');
      expect(campaignStateOf(launched({ expansion: { ...started, status: 'done', finishedAt: NOW.toISOString() } }), reading(status), NOW)).toBe(status);
    }
    expect(campaignStateOf(launched({ expansion: { ...started, status: 'done' } }), reading('PROCESSING'), NOW)).toBe('SENDING');
    expect(campaignStateOf(launched({ expansion: { ...started, status: 'done' } }), reading('CANCELLED'), NOW)).toBe('CANCELLED');
  });
});

describe('campaignTotalsOf', () => {
  it('counts opted-out and skipped members apart from failures, and what expansion only counted', () => {
    const campaign = launched({
      expansion: {
        ...started,
        status: 'done',
        counts: { members: 3700, duplicates: 300, excluded: 59, filteredOut: 41, optedOut: 1, missingAttribute: 50, invalid: 2, sendable: 3247, heldOut: 0 },
      },
    });
    const { totals, skippedByReason, failuresByCode } = campaignTotalsOf(
      campaign,
      summary({
        sent: 3240,
        delivered: 3000,
        read: 1200,
        failed: 60,
        unknown: 1,
        unconfirmed: 1,
        pending: 3,
        held: 2,
        failuresByReason: { OPTED_OUT: 3, MISSING_ATTRIBUTE: 50, INVALID_PARAMETER: 2, '131026': 5 },
      }),
    );
    expect(totals).toEqual({
      audience: 3700,
      sendable: 3247,
      queued: 5,
      sent: 3240,
      delivered: 3000,
      read: 1200,
      failed: 5,
      unknown: 2,
      optedOut: 3,
      skipped: 452,
      cancelled: 0,
    });
    expect(skippedByReason).toEqual({ DUPLICATE: 300, EXCLUDED: 59, FILTERED_OUT: 41, MISSING_ATTRIBUTE: 50, INVALID_PARAMETER: 2 });
    expect(failuresByCode).toEqual({ '131026': 5 });
  });

  it('is all zeros for a draft', () => {
    expect(campaignTotalsOf(draftCampaign(ORG, 'cmp_z'), undefined).totals).toEqual({
      audience: 0,
      sendable: 0,
      queued: 0,
      sent: 0,
      delivered: 0,
      read: 0,
      failed: 0,
      unknown: 0,
      optedOut: 0,
      skipped: 0,
      cancelled: 0,
    });
  });
});

describe('readCampaignView', () => {
  it('reads the job’s recorded outcomes: the same summary the job’s status gives', async () => {
    const broadcasts = new InMemoryBroadcastRepository();
    await broadcasts.createJob({ ...job, totalRecipients: 4, totalChunks: 1 }, [4]);
    const at = '2026-12-01T11:10:00.000Z';
    await broadcasts.markChunkStarted('pub_c1', 0, new Date(at));
    await broadcasts.recordOutcomes('pub_c1', 0, [
      { index: 0, to: '919800000010', status: 'SENT', messageId: 'wamid.0', attempts: 1, updatedAt: at },
      { index: 1, to: '919800000011', status: 'FAILED', failureReasonCode: 'OPTED_OUT', attempts: 0, updatedAt: at },
      { index: 2, to: '919800000012', status: 'FAILED', failureReasonCode: 'MISSING_ATTRIBUTE', attempts: 0, updatedAt: at },
      { index: 3, to: '919800000013', status: 'FAILED', failureReasonCode: '131026', attempts: 1, updatedAt: at },
    ]);
    await broadcasts.reconcileChunk('pub_c1', 0, new Date(at));
    const counts = { ...emptyExpansionCounts(), members: 5, duplicates: 1, optedOut: 1, missingAttribute: 1, sendable: 2 };
    const running = launched({ expansion: { ...started, counts } });
    const partial = await readCampaignView({ broadcasts }, running, { now: NOW, unconfirmedAfterMs: 86_400_000 });
    expect(partial.state).toBe('SENDING');
    expect(partial.finishedAt).toBeNull();
    const done = await readCampaignView(
      { broadcasts },
      { ...running, expansion: { ...running.expansion!, status: 'done', finishedAt: '2026-12-01T11:09:00.000Z' } },
      { now: NOW, unconfirmedAfterMs: 86_400_000 },
    );
    expect(done).toMatchObject({
      state: 'COMPLETED_WITH_FAILURES',
      jobId: 'pub_c1',
      launchedAt,
      startedAt: launchedAt,
      finishedAt: at,
      totals: { audience: 5, sendable: 2, queued: 0, sent: 1, failed: 1, optedOut: 1, skipped: 2 },
      skippedByReason: { DUPLICATE: 1, MISSING_ATTRIBUTE: 1 },
      failuresByCode: { '131026': 1 },
      cost: null,
    });
  });

  it('shows no job of another organization', async () => {
    const broadcasts = new InMemoryBroadcastRepository();
    await broadcasts.createJob({ ...job, organizationId: 'org_other', totalRecipients: 1, totalChunks: 1 }, [1]);
    const view = await readCampaignView({ broadcasts }, launched(), { now: NOW, unconfirmedAfterMs: 1 });
    expect([view.state, view.totals.sent]).toEqual(['LAUNCHING', 0]);
  });
});

describe('the canary and send rules in the view', () => {
  const haltIf = { optOutRate: 0.01 };
  const sendRules = { canary: { count: 100, observeMinutes: 30, haltIf }, haltIf, sendWindow: { from: '09:00', to: '20:00' } };
  const figures = {
    stage: 'canary' as const,
    measured: { optOutRate: 0.03, failureRate: 0, blockRate: 0, qualityDrop: false },
    thresholds: haltIf,
    exceeded: ['optOutRate' as const],
    sent: 100,
    counts: { optOuts: 3, failures: 0, blocks: 0 },
  };

  it('echoes the rules as given and shows the canary’s state, slice, observation and verdict; the halt on the pause', () => {
    const canary = { state: 'halted' as const, slice: 100, observeUntil: '2026-12-01T11:40:00.000Z', verdict: { ...figures, at: '2026-12-01T11:41:00.000Z' } };
    const paused = reading('PAUSED', {}, { pausedAt: '2026-12-01T11:41:00.000Z', pauseReason: 'CANARY_HALTED', pausedBy: 'canary', pauseHalt: figures });
    const view = campaignViewOf(launched({ sendRules, expansion: { ...started, canary, watch: { haltedAt: '2026-12-01T11:41:00.000Z' } } }), paused, null, NOW);
    expect(view).toMatchObject({
      state: 'PAUSED',
      sendRules,
      canary,
      pause: { reason: 'CANARY_HALTED', since: '2026-12-01T11:41:00.000Z', failsAt: null, pausedBy: 'canary', halt: figures },
    });
    expect(view).not.toHaveProperty('watch');
  });

  it('leaves both out of a campaign without rules, and the canary out before the launch', () => {
    const view = campaignViewOf(launched({ expansion: started }), reading('PROCESSING'), null, NOW);
    expect(view).not.toHaveProperty('sendRules');
    expect(view).not.toHaveProperty('canary');
    const draft = campaignViewOf({ ...draftCampaign(ORG, 'cmp_r'), sendRules }, undefined, null, NOW);
    expect(draft.sendRules).toEqual(sendRules);
    expect(draft).not.toHaveProperty('canary');
  });
});
