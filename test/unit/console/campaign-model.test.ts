/** The console's pure parts for campaigns (console/model/): the funnel, the left-out rows, states, controls, the route and follow-ups. */
import type { CampaignTotals, CampaignView } from '../../../console/model/api-types';
import {
  campaignChangesByItself,
  campaignControlsOf,
  campaignProgressOf,
  campaignStateLabels,
  campaignStateNoteOf,
  isCampaignFinished,
} from '../../../console/model/campaign-state';
import { followUpBody, followUpDefaults, followUpOriginOfCampaign, reachesAnyone } from '../../../console/model/follow-up';
import { campaignFunnelOf, skippedRowsOf } from '../../../console/model/funnel';
import { campaignHref, routeOf } from '../../../console/model/route';
import { CAMPAIGN_STATES } from '../../../shared/campaigns/campaign';

const totals = (overrides: Partial<CampaignTotals> = {}): CampaignTotals => ({
  audience: 3_700,
  sendable: 3_330,
  queued: 30,
  sent: 3_290,
  delivered: 3_100,
  read: 1_200,
  failed: 61,
  unknown: 0,
  optedOut: 1,
  skipped: 350,
  cancelled: 0,
  ...overrides,
});

const view = (overrides: Partial<CampaignView> = {}): CampaignView => ({
  campaignId: 'cmp_1',
  name: 'Spring VIP',
  state: 'SENDING',
  fromPhoneNumber: '4915700000001',
  template: { name: 'spring_offer', language: 'en', category: 'MARKETING' },
  audience: { audienceIds: ['aud_1', 'contacts'] },
  totals: totals(),
  failuresByCode: {},
  jobId: 'pub_1',
  createdAt: '2026-12-01T09:00:00.000Z',
  launchedAt: '2026-12-01T09:01:00.000Z',
  startedAt: '2026-12-01T09:01:01.000Z',
  finishedAt: null,
  ...overrides,
});

describe("a campaign's funnel", () => {
  it('is the totals: audience → sendable → sent → delivered → read, skipped, opted out and failed beside them', () => {
    expect(campaignFunnelOf(totals()).map((bar) => [bar.label, bar.value])).toEqual([
      ['Audience', 3_700],
      ['Sendable', 3_330],
      ['Sent', 3_290],
      ['Delivered', 3_100],
      ['Read', 1_200],
      ['Skipped', 350],
      ['Opted out', 1],
      ['Failed', 61],
    ]);
  });

  it('lists who was left out by reason, in the API order, with none left out omitted', () => {
    const rows = skippedRowsOf({ MISSING_ATTRIBUTE: 50, DUPLICATE: 300, EXCLUDED: 0 });
    expect(rows.map((row) => [row.reason, row.count])).toEqual([
      ['DUPLICATE', 300],
      ['MISSING_ATTRIBUTE', 50],
    ]);
    expect(rows[1]!.meaning).toMatch(/no fallback/);
    expect(skippedRowsOf(undefined)).toEqual([]);
  });
});

describe("a campaign's state", () => {
  it('has words for every state the service answers', () => {
    expect(Object.keys(campaignStateLabels).sort()).toEqual([...CAMPAIGN_STATES].sort());
  });

  it('is read again while it changes by itself: not a draft, not finished', () => {
    expect(CAMPAIGN_STATES.filter(campaignChangesByItself)).toEqual(['SCHEDULED', 'LAUNCHING', 'SENDING', 'WAITING_FOR_LIMIT', 'PAUSED']);
    expect(CAMPAIGN_STATES.filter(isCampaignFinished)).toEqual(['COMPLETED', 'COMPLETED_WITH_FAILURES', 'CANCELLED', 'FAILED']);
  });

  it('allows pause while launching, sending or waiting; resume when paused; cancel from scheduled until finished', () => {
    const allowed = (control: 'pause' | 'resume' | 'cancel') => CAMPAIGN_STATES.filter((state) => campaignControlsOf(state)[control]);
    expect(allowed('pause')).toEqual(['LAUNCHING', 'SENDING', 'WAITING_FOR_LIMIT']);
    expect(allowed('resume')).toEqual(['PAUSED']);
    expect(allowed('cancel')).toEqual(['SCHEDULED', 'LAUNCHING', 'SENDING', 'WAITING_FOR_LIMIT', 'PAUSED']);
  });

  it('notes when a campaign waiting for the limit goes on, who paused one, and failures after a COMPLETED send', () => {
    const waiting = campaignStateNoteOf(view({ state: 'WAITING_FOR_LIMIT', waitingUntil: '2026-12-02T09:00:00.000Z' }));
    expect(waiting).toMatch(/^goes on at .+ as the 24-hour window frees$/);
    expect(waiting).not.toContain('—');
    expect(campaignStateNoteOf(view({ state: 'WAITING_FOR_LIMIT', waitingUntil: null }))).toBe('goes on as the 24-hour window frees');
    expect(campaignStateNoteOf(view({ state: 'PAUSED', pause: { pausedBy: 'user' } }))).toBe('paused by user');
    expect(campaignStateNoteOf(view({ state: 'PAUSED', pause: { pausedBy: 'platform', reason: 'ACCOUNT_HOLD' } }))).toBe('paused by platform: ACCOUNT_HOLD');
    expect(campaignStateNoteOf(view({ state: 'PAUSED', pause: null }))).toBeUndefined();
    expect(campaignStateNoteOf(view({ state: 'COMPLETED' }))).toBe('61 failed after sending (reported by Meta)');
    expect(campaignStateNoteOf(view({ state: 'SENDING' }))).toBeUndefined();
  });

  it('shows progress as the sendable done, of the sendable found so far', () => {
    expect(campaignProgressOf(totals())).toEqual({ settled: 3_300, percent: 99 });
    expect(campaignProgressOf(totals({ sendable: 0, queued: 0 }))).toEqual({ settled: 0, percent: 0 });
  });
});

describe("a campaign's address", () => {
  it('opens a cmp_ id as a campaign, any other id as a job (saved links), #/campaigns as the campaign list', () => {
    expect(routeOf('#/campaigns')).toEqual({ page: 'campaign-list' });
    expect(routeOf('#/campaigns/cmp_01HX')).toEqual({ page: 'audience-campaign', campaignId: 'cmp_01HX' });
    expect(routeOf('#/campaigns/cmp%5F01HX')).toEqual({ page: 'audience-campaign', campaignId: 'cmp_01HX' });
    expect(routeOf('#/campaigns/pub_1')).toEqual({ page: 'campaign', jobId: 'pub_1' });
    expect(routeOf('#/campaigns/cmp_%zz')).toEqual({ page: 'list' });
    expect(routeOf(campaignHref('cmp_a/b'))).toEqual({ page: 'audience-campaign', campaignId: 'cmp_a/b' });
  });
});

describe("a campaign's follow-ups", () => {
  it("start from the campaign's name, template, category and sender", () => {
    const origin = followUpOriginOfCampaign(view({ template: { name: 'spring_offer', language: 'en', category: 'UTILITY' } }));
    const form = followUpDefaults('unread', origin);
    expect(followUpBody('unread', form, origin.fromPhoneNumber)).toEqual({
      broadcastName: 'Spring VIP · follow-up to unread',
      fromPhoneNumber: '4915700000001',
      templateName: 'spring_offer',
      templateLanguage: 'en',
      templateType: 'UTILITY',
      audience: { statuses: ['SENT', 'DELIVERED'], notReadAfterHours: 24 },
    });
  });

  it("are offered only when the campaign's totals have someone in their audience", () => {
    expect(reachesAnyone('failed', totals({ failed: 0 }))).toBe(false);
    expect(reachesAnyone('failed', totals())).toBe(true);
    expect(reachesAnyone('unread', totals({ sent: 10, read: 10 }))).toBe(false);
  });
});
