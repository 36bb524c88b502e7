/**
 * The console's pure parts for outcomes (issue 38, docs/CONSOLE.md "Outcomes"): the funnel after read,
 * taps per button, the outcome facts, the lift panel, the recipients' outcome columns, the follow-up's
 * outcome filters, and the builder's holdout, attribution window and tracked link destination.
 */
import type { CampaignLift, CampaignTotals, JobSummary } from '../../../console/model/api-types';
import { campaignBody } from '../../../console/model/campaign-draft';
import { measurementOf } from '../../../console/model/campaign-measurement';
import { audienceOf, choiceFilter, followUpBody, followUpDefaults, followUpOriginOfCampaign, reachesAnyone } from '../../../console/model/follow-up';
import { campaignFunnelOf, funnelOf } from '../../../console/model/funnel';
import {
  UNRELIABLE_LIFT,
  buttonRowsOf,
  liftRowsOf,
  liftVerdictOf,
  outcomeBarsOf,
  outcomeFactsOf,
  percentOf,
  tappedPayloadsOf,
} from '../../../console/model/outcomes';
import { liftOf } from '../../../shared/outcomes/lift';
import { hasOutcomeColumns, outcomeCellsOf } from '../../../console/model/recipient-outcomes';
import { badTrackedUrl, campaignValuesOf, needsOf, needsText } from '../../../console/model/template-needs';

const summary = (overrides: Partial<JobSummary> = {}): JobSummary => ({
  sent: 1_000,
  failed: 20,
  unknown: 0,
  pending: 0,
  chunksDone: 1,
  chunksTotal: 1,
  failuresByReason: {},
  delivered: 800,
  read: 300,
  unconfirmed: 0,
  ...overrides,
});

const totals = (overrides: Partial<CampaignTotals> = {}): CampaignTotals => ({
  audience: 1_100,
  sendable: 1_000,
  queued: 0,
  sent: 900,
  delivered: 800,
  read: 300,
  failed: 10,
  unknown: 0,
  optedOut: 2,
  skipped: 0,
  cancelled: 0,
  ...overrides,
});

const lift = (overrides: Partial<CampaignLift> = {}): CampaignLift => ({
  sentReplyRate: 0.1,
  holdoutInboundRate: 0.02,
  incrementalReplies: 72,
  heldOut: 100,
  holdoutInbound: 2,
  sent: 900,
  replied: 90,
  reliable: true,
  ...overrides,
});

describe('the funnel after read', () => {
  it('continues sent → delivered → read → replied → clicked, failed beside, rates against delivered', () => {
    const bars = funnelOf(summary({ replied: 100, clicked: 40, buttons: [] }));
    expect(bars.map((bar) => [bar.label, bar.value, bar.rate])).toEqual([
      ['Sent', 1_000, undefined],
      ['Delivered', 800, undefined],
      ['Read', 300, undefined],
      ['Replied', 100, '12.5 % of delivered'],
      ['Clicked', 40, '5.0 % of delivered'],
      ['Failed', 20, undefined],
    ]);
  });

  it('shows nothing rather than zeros for a job from before outcomes', () => {
    expect(funnelOf(summary()).map((bar) => bar.label)).toEqual(['Sent', 'Delivered', 'Read', 'Failed']);
  });

  it('has no rate while nothing is delivered, and a zero when the service counted none', () => {
    expect(outcomeBarsOf({ delivered: 0, replied: 0 })).toEqual([{ label: 'Replied', value: 0 }]);
    expect(percentOf(1, 0)).toBeUndefined();
  });

  it("puts a campaign's replied and clicked after read and its held out beside the failed", () => {
    const bars = campaignFunnelOf(totals({ replied: 90, clicked: 30, heldOut: 100 }));
    expect(bars.map((bar) => bar.label)).toEqual([
      'Audience',
      'Sendable',
      'Sent',
      'Delivered',
      'Read',
      'Replied',
      'Clicked',
      'Skipped',
      'Opted out',
      'Failed',
      'Held out',
    ]);
    expect(campaignFunnelOf(totals({ heldOut: 0 })).map((bar) => bar.label)).not.toContain('Held out');
  });
});

describe('taps per button and the outcome facts', () => {
  it('lists taps in the template order, a tap no button matched last', () => {
    const buttons = [
      { index: -1, payload: 'hello', taps: 1 },
      { index: 1, payload: 'NO', taps: 4 },
      { index: 0, payload: 'YES', taps: 26 },
    ];
    expect(buttonRowsOf(buttons)).toEqual([
      { button: 'Button 1', payload: 'YES', taps: 26 },
      { button: 'Button 2', payload: 'NO', taps: 4 },
      { button: 'No button matched', payload: 'hello', taps: 1 },
    ]);
    expect(tappedPayloadsOf(buttons)).toEqual(['YES', 'NO', 'hello']);
    expect(buttonRowsOf(undefined)).toEqual([]);
  });

  it('says the STOP replies and the cost per reply and per click when the answer has them', () => {
    expect(outcomeFactsOf({ repliedByStop: 3 }, { currency: 'EUR', billed: 900, amount: '90.0000', perReply: '1.0000', perClick: '3.0000' })).toEqual([
      ['Opted out by a STOP reply', '3'],
      ['Cost per reply', '1.0000 EUR'],
      ['Cost per click', '3.0000 EUR'],
    ]);
    expect(outcomeFactsOf({}, { currency: 'EUR', billed: 900, amount: '90.0000' })).toEqual([]);
  });
});

describe('the lift panel', () => {
  it('compares those sent with those held out and names the replies the campaign caused and their cost', () => {
    expect(liftRowsOf(lift({ costPerIncrementalReply: '1.2500' }), 'EUR')).toEqual([
      ['Reply rate of those sent', '10.0 % (90 of 900)'],
      ['Inbound rate of those held out', '2.0 % (2 of 100)'],
      ['Replies the campaign caused (incremental)', '72'],
      ['Cost per incremental reply', '1.2500 EUR'],
    ]);
    expect(liftRowsOf(lift({ incrementalReplies: 7.25 }), undefined)[2]![1]).toBe('7.3');
  });

  it('says in words why a lift is not to be trusted: too few held out, too few replies, or chance', () => {
    expect(liftVerdictOf(lift({ reliable: false, heldOut: 37 }))).toBe(UNRELIABLE_LIFT.heldOut);
    expect(UNRELIABLE_LIFT.heldOut).toMatch(/^Too few held out to trust: at least 100 members/);
    expect(liftVerdictOf(lift({ reliable: false, sent: 50 }))).toBe(UNRELIABLE_LIFT.heldOut);
    expect(liftVerdictOf(lift({ reliable: false, replied: 5, holdoutInbound: 2 }))).toBe(UNRELIABLE_LIFT.responses);
    expect(liftVerdictOf(lift({ reliable: false }))).toBe(UNRELIABLE_LIFT.chance);
    expect(liftVerdictOf(lift())).toMatch(/drawn at random and never sent/);
  });

  it("agrees with the service's lift: what it calls unreliable, the console explains", () => {
    // 37 held out: the service's rule (shared/outcomes/lift.ts) calls it unreliable, and the console says why.
    const served = liftOf({ replied: 325, holdout: { heldOut: 37, inbound: 1 } }, 3_250, { amount: '390.00' });
    expect(served.reliable).toBe(false);
    expect(liftVerdictOf(served)).toBe(UNRELIABLE_LIFT.heldOut);
    expect(liftVerdictOf(liftOf({ replied: 90, holdout: { heldOut: 100, inbound: 2 } }, 900))).toMatch(/never sent/);
  });
});

describe("the recipients' outcome columns", () => {
  it('shows when the rows carry them, with the first click beside the clicks', () => {
    expect(hasOutcomeColumns([{}, { repliedAt: null }])).toBe(true);
    expect(hasOutcomeColumns([{}])).toBe(false);
    expect(outcomeCellsOf({ repliedAt: null, buttonPayload: null, firstClickAt: null, clicks: 0 })).toEqual(['—', '—', '—']);
    const [replied, button, clicks] = outcomeCellsOf({
      repliedAt: '2026-12-01T10:00:00.000Z',
      buttonPayload: 'YES',
      firstClickAt: '2026-12-01T11:00:00.000Z',
      clicks: 2,
    });
    expect(replied).not.toBe('—');
    expect(button).toBe('YES');
    expect(clicks).toMatch(/^2 \(first .+\)$/);
  });
});

describe("the follow-up's outcome filters", () => {
  it('sends replied, clicked and buttonPayloads in the audience, ANDed with the statuses', () => {
    expect(audienceOf('outcome', undefined, { replied: false }, ['READ'])).toEqual({ statuses: ['READ'], replied: false });
    expect(audienceOf('outcome', undefined, { clicked: true, buttonPayloads: ['YES'] })).toEqual({
      statuses: ['SENT', 'DELIVERED', 'READ'],
      clicked: true,
      buttonPayloads: ['YES'],
    });
    expect(audienceOf('unread', 24, { replied: false })).toEqual({ statuses: ['SENT', 'DELIVERED'], notReadAfterHours: 24, replied: false });
    expect(audienceOf('failed', undefined, { replied: true })).toEqual({ statuses: ['FAILED'] });
    expect([choiceFilter('yes'), choiceFilter('no'), choiceFilter('any')]).toEqual([true, false, undefined]);
  });

  it('builds the body of "read but did not reply" with the name saying what it follows', () => {
    const form = {
      ...followUpDefaults('outcome', { broadcastName: 'Spring', template: { name: 'promo', language: 'en' }, fromPhoneNumber: '1' }),
      statuses: ['READ'],
      filters: { replied: false },
    };
    expect(followUpBody('outcome', form, '4915700000001')).toEqual({
      broadcastName: 'Spring · follow-up by outcome',
      fromPhoneNumber: '4915700000001',
      templateName: 'promo',
      templateLanguage: 'en',
      templateType: 'MARKETING',
      audience: { statuses: ['READ'], replied: false },
    });
  });

  it('reaches anyone sent, and offers the payloads a campaign saw tapped', () => {
    expect(reachesAnyone('outcome', { sent: 1, read: 1, failed: 0 })).toBe(true);
    expect(reachesAnyone('outcome', { sent: 0, read: 0, failed: 3 })).toBe(false);
    const origin = followUpOriginOfCampaign({
      name: 'Spring',
      fromPhoneNumber: '1',
      template: { name: 'promo', language: 'en', category: 'MARKETING' },
      totals: { buttons: [{ index: 0, payload: 'YES', taps: 2 }] },
    });
    expect(origin.tappedPayloads).toEqual(['YES']);
  });
});

describe("the builder's measurement and tracked links", () => {
  it('takes a holdout above 0 and up to 50 % with one decimal, and a window of 1..720 whole hours', () => {
    expect(measurementOf('', '')).toEqual({ values: {} });
    expect(measurementOf('5', '48')).toEqual({ values: { holdout: { percent: 5 }, attributionWindowHours: 48 } });
    expect(measurementOf('2.5', '').values).toEqual({ holdout: { percent: 2.5 } });
    for (const bad of ['0', '50.5', '2.25', '-1', 'x']) expect(measurementOf(bad, '').problem).toMatch(/holdout must be above 0 and at most 50/);
    for (const bad of ['0', '721', '1.5']) expect(measurementOf('', bad).problem).toMatch(/attribution window must be whole hours from 1 to 720/);
  });

  it('sends holdout and attributionWindowHours in the create body', () => {
    const body = campaignBody({
      name: 'N',
      fromPhoneNumber: '1',
      audienceId: 'aud_1',
      template: { name: 't', language: 'en', category: 'MARKETING' },
      values: {},
      holdout: { percent: 10 },
      attributionWindowHours: 24,
    });
    expect(body).toMatchObject({ holdout: { percent: 10 }, attributionWindowHours: 24 });
    expect(
      campaignBody({ name: 'N', fromPhoneNumber: '1', audienceId: 'aud_1', template: { name: 't', language: 'en', category: 'MARKETING' }, values: {} }),
    ).not.toHaveProperty('holdout');
  });

  it('asks a tracked URL button for its destination and sends it as trackedUrl (a literal or an attribute)', () => {
    const parameters = {
      sendable: true,
      body: { format: 'POSITIONAL' as const, count: 0 },
      buttons: [
        { index: 0, type: 'URL', dynamic: true, tracked: true as const },
        { index: 1, type: 'QUICK_REPLY', dynamic: false },
      ],
    };
    const needs = needsOf(parameters);
    expect(needs.map((need) => [need.key, need.label, need.optional])).toEqual([
      ['button-0', 'Button 1: tracked link destination (https://)', false],
      ['button-1', 'Button 2: Quick-reply payload', true],
    ]);
    expect(needsText(parameters)).toBe('Button 1: tracked link destination, Button 2: Quick-reply payload');
    expect(campaignValuesOf(needs, { 'button-0': { source: 'literal', value: 'https://shop.example/p/42?utm_source=wa' } })).toEqual({
      buttons: [{ index: 0, type: 'url', trackedUrl: 'https://shop.example/p/42?utm_source=wa' }],
    });
    expect(campaignValuesOf(needs, { 'button-0': { source: 'attribute', attribute: 'product_url', fallback: '' } })).toEqual({
      buttons: [{ index: 0, type: 'url', trackedUrl: { attribute: 'product_url' } }],
    });
    expect(badTrackedUrl(needs, { 'button-0': { source: 'literal', value: 'http://shop.example' } })?.key).toBe('button-0');
    expect(badTrackedUrl(needs, { 'button-0': { source: 'literal', value: `https://shop.example/${'a'.repeat(2_000)}` } })?.key).toBe('button-0');
    expect(badTrackedUrl(needs, { 'button-0': { source: 'literal', value: 'https://shop.example/p/42' } })).toBeUndefined();
    expect(badTrackedUrl(needs, { 'button-0': { source: 'attribute', attribute: 'url', fallback: '' } })).toBeUndefined();
    // A URL button that is not tracked keeps its suffix.
    expect(needsOf({ ...parameters, buttons: [{ index: 0, type: 'URL', dynamic: true }] })[0]!.label).toBe('Button 1: URL suffix');
  });
});
