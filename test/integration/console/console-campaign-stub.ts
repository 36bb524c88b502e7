/**
 * Recorded answers of the campaign routes (docs/CAMPAIGNS.md, HELPER-RULES "The HTTP API"), served
 * to the browser by Playwright's `page.route` (not a test file). The console's campaign pages were
 * built beside the routes (issue 36, helpers "engine" and "controls"): until those are merged, this
 * stub answers `/campaigns…` in the broadcast envelope, exactly shaped as the API says, and keeps
 * the state pause, resume and cancel change, so the pages' rendering and actions are proven. Every
 * other request (sign-in, the page, its files, the reason table) goes to the real local runtime.
 */
import type { Page, Request, Route } from 'playwright-core';
import type { CampaignState, CampaignView, DryRunAnswer } from '../../../console/model/api-types';
import { recipientsCsv, type RecipientRow } from '../../../shared/broadcast/list-recipients';

export const SENDING_ID = 'cmp_01SPRINGVIP';
export const WAITING_ID = 'cmp_02AUTUMN';
export const FOLLOW_UP_JOB_ID = 'pub_followup01';

const campaign = (campaignId: string, name: string, state: CampaignState, overrides: Partial<CampaignView> = {}): CampaignView => ({
  campaignId,
  name,
  state,
  fromPhoneNumber: '4915700000001',
  template: { name: 'spring_offer', language: 'en', category: 'MARKETING' },
  audience: { audienceIds: ['aud_vip', 'contacts'], excludeAudienceIds: ['aud_staff'] },
  // Two audiences of 2,500 and 1,200 with 300 in both, one opted out, 50 without first_name (the proof).
  totals: {
    audience: 3_700,
    sendable: 3_349,
    queued: 49,
    sent: 3_250,
    delivered: 3_100,
    read: 1_200,
    failed: 50,
    unknown: 0,
    optedOut: 1,
    skipped: 350,
    cancelled: 0,
  },
  skippedByReason: { DUPLICATE: 300, EXCLUDED: 0, FILTERED_OUT: 0, MISSING_ATTRIBUTE: 50, INVALID_PARAMETER: 0 },
  failuresByCode: { '131049': 30, '131026': 20 },
  cost: { currency: 'EUR', billed: 3_250, amount: '390.0000', byCategory: { marketing: { billed: 3_250, amount: '390.0000' } } },
  jobId: `pub_of_${campaignId}`,
  createdAt: '2026-12-01T09:00:00.000Z',
  launchedAt: '2026-12-01T09:01:00.000Z',
  startedAt: '2026-12-01T09:01:01.000Z',
  finishedAt: null,
  scheduledAt: null,
  waitingUntil: null,
  pause: null,
  ...overrides,
});

/** 60 recipients, every third FAILED: two pages of 50, and a FAILED filter of 20. */
const rows: RecipientRow[] = Array.from({ length: 60 }, (_, index) => {
  const failed = index % 3 === 0;
  return {
    countryCode: '91',
    toPhoneNumber: String(9_876_500_000 + index),
    status: failed ? 'FAILED' : 'DELIVERED',
    messageId: failed ? null : `wamid.${index}`,
    failureReasonCode: failed ? '131049' : null,
    failureReason: failed ? 'Meta chose not to deliver this marketing message' : null,
    updatedAt: '2026-12-01T09:05:00.000Z',
  };
});

const dryRun: DryRunAnswer = {
  dryRun: true,
  totals: { received: 50, sendable: 48, optedOut: 1, duplicates: 0, invalid: 1 },
  messagingLimit: { tier: 'TIER_10K', limit: 10_000, usedLast24h: 3_250, headroom: 6_750 },
  estimatedCost: { currency: 'EUR', amount: '5.7600', priced: 48, unpriced: 0 },
};

/** The broadcast routes' envelope. */
const envelope = (statusCode: number, message: string, data: unknown) => JSON.stringify({ statusCode, message, data });

export interface CampaignStub {
  campaigns: Map<string, CampaignView>;
  /** Every request the stub answered: method, path and query, and the headers the test checks. */
  calls: Array<{ method: string; path: string; query: string; idempotencyKey?: string; body?: unknown }>;
}

const CONTROLS: Record<string, (view: CampaignView) => Partial<CampaignView>> = {
  pause: () => ({ state: 'PAUSED', pause: { pausedBy: 'user' } }),
  resume: () => ({ state: 'SENDING', pause: null }),
  cancel: (view) => ({ state: 'CANCELLED', finishedAt: '2026-12-01T09:10:00.000Z', totals: { ...view.totals, cancelled: view.totals.queued, queued: 0 } }),
};

function recipientsAnswer(route: Route, url: URL): Promise<void> {
  const status = url.searchParams.get('status');
  const matching = rows.filter((row) => !status || row.status === status);
  if (url.searchParams.get('format') === 'csv') {
    // Paged as a large campaign's CSV may be (X-Next-Cursor): the console joins the pages.
    const second = url.searchParams.get('cursor') === 'csv2';
    const half = Math.ceil(matching.length / 2);
    const page = second ? matching.slice(half) : matching.slice(0, half);
    return route.fulfill({
      status: 200,
      contentType: 'text/csv; charset=utf-8',
      headers: second ? {} : { 'X-Next-Cursor': 'csv2' },
      body: recipientsCsv(page),
    });
  }
  const limit = Number(url.searchParams.get('limit') ?? 500);
  const start = Number(url.searchParams.get('cursor') ?? 0);
  const page = matching.slice(start, start + limit);
  const nextCursor = start + limit < matching.length ? String(start + limit) : null;
  return route.fulfill({ status: 200, contentType: 'application/json', body: envelope(200, 'Recipients', { recipients: page, nextCursor }) });
}

function answer(stub: CampaignStub, route: Route, request: Request): Promise<void> {
  const url = new URL(request.url());
  const [, campaignId, action] = /\/campaigns(?:\/([^/]+))?(?:\/([^/]+))?$/.exec(url.pathname) ?? [];
  const body = request.postData() ? (JSON.parse(request.postData()!) as unknown) : undefined;
  stub.calls.push({ method: request.method(), path: url.pathname, query: url.search, idempotencyKey: request.headers()['idempotency-key'], body });
  const json = (status: number, message: string, data: unknown) =>
    route.fulfill({ status, contentType: 'application/json', body: envelope(status, message, data) });
  if (!campaignId) return json(200, 'Campaigns', { campaigns: [...stub.campaigns.values()], nextCursor: null });
  const view = stub.campaigns.get(decodeURIComponent(campaignId));
  if (!view) return json(404, 'Campaign not found', { error: { code: 'CAMPAIGN_NOT_FOUND', message: 'Campaign not found' } });
  if (!action) return json(200, 'Campaign', view);
  if (action === 'recipients') return recipientsAnswer(route, url);
  if (action === 'follow-up') {
    if (url.searchParams.get('dryRun') === 'true') return json(200, 'Dry run', dryRun);
    return route.fulfill({
      status: 202,
      contentType: 'application/json',
      headers: { 'X-Broadcast-Job-Id': FOLLOW_UP_JOB_ID },
      body: envelope(202, 'Accepted', { jobId: FOLLOW_UP_JOB_ID, followUpOf: view.jobId, audience: { matched: 50, optedOut: 1 } }),
    });
  }
  const control = CONTROLS[action!];
  if (!control) return json(404, 'Route not found', {});
  const next = { ...view, ...control(view) };
  stub.campaigns.set(view.campaignId, next);
  return json(200, 'OK', { campaignId: next.campaignId, state: next.state });
}

/** Answers the page's `/campaigns…` requests from the recorded campaigns (registered after any catch-all route, so it wins). */
export async function stubCampaignRoutes(page: Page): Promise<CampaignStub> {
  const stub: CampaignStub = {
    campaigns: new Map([
      [SENDING_ID, campaign(SENDING_ID, 'Spring VIP', 'SENDING')],
      [WAITING_ID, campaign(WAITING_ID, 'Autumn launch', 'WAITING_FOR_LIMIT', { waitingUntil: '2026-12-02T09:01:00.000Z', failuresByCode: {}, cost: null })],
    ]),
    calls: [],
  };
  await page.route(
    (url) => /\/broadcast\/public\/campaigns(\/|$)/.test(url.pathname),
    (route, request) => answer(stub, route, request),
  );
  return stub;
}
