/**
 * GET /campaigns: the caller organization's campaigns, newest first, each as its view (campaign-view.ts),
 * optionally only those in one state (docs/CAMPAIGNS.md "Listing campaigns").
 *
 * The state is derived per campaign, so a filtered page reads on through the store until it is
 * full, the store ends, or MAX_EXAMINED campaigns were looked at (then the page may be short and
 * `nextCursor` continues after the last one examined). Each read asks the store for exactly the
 * campaigns the page still lacks, so a full page always ends on a store page's end and the store's
 * cursor is where the next page starts.
 */
import type { StatusReading } from '../broadcast/get-job-status';
import { isJobInScope, requireOperationInScope, type ScopedCaller } from '../broadcast/key-scope';
import type { CampaignState } from './campaign';
import { readCampaignView, type CampaignView } from './campaign-view';
import { InvalidCampaignCursorError } from './errors';
import type { CampaignReadPorts } from './get-campaign';

export const CAMPAIGNS_PAGE_DEFAULT = 20;
export const CAMPAIGNS_PAGE_MAX = 100;
/** Campaigns one request looks at, at most: bounds the reads of a page whose filter matches rarely. */
export const MAX_EXAMINED = 500;
/** Campaigns whose view is read at once (a job read and its progress each). */
const VIEW_READ_CONCURRENCY = 10;

export interface CampaignsQuery {
  state?: CampaignState;
  limit: number;
  cursor?: string;
}

export interface CampaignsPage {
  campaigns: CampaignView[];
  nextCursor: string | null;
}

/** The listing's cursor: the store's, with the state filter it was issued for. */
const encodeCursor = (storeCursor: string, state: string): string => Buffer.from(JSON.stringify({ c: storeCursor, s: state })).toString('base64url');

function decodeCursor(text: string, state: string): string {
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCampaignCursorError();
  }
  const { c, s } = (cursor ?? {}) as { c?: unknown; s?: unknown };
  if (typeof c !== 'string' || c.length === 0 || s !== state) throw new InvalidCampaignCursorError();
  return c;
}

async function viewsOf(ports: CampaignReadPorts, campaigns: Parameters<typeof readCampaignView>[1][], reading: StatusReading): Promise<CampaignView[]> {
  const views: CampaignView[] = [];
  for (let start = 0; start < campaigns.length; start += VIEW_READ_CONCURRENCY) {
    views.push(...(await Promise.all(campaigns.slice(start, start + VIEW_READ_CONCURRENCY).map((campaign) => readCampaignView(ports, campaign, reading)))));
  }
  return views;
}

/**
 * @example
 * await listCampaigns(ports, caller, { state: 'SENDING', limit: 20 }, { now: new Date(), unconfirmedAfterMs }); // { campaigns: [...], nextCursor: null }
 */
export async function listCampaigns(ports: CampaignReadPorts, caller: ScopedCaller, query: CampaignsQuery, reading: StatusReading): Promise<CampaignsPage> {
  requireOperationInScope(caller, 'read-job-status');
  const state = query.state ?? '';
  let cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, state);
  const page: CampaignView[] = [];
  let examined = 0;
  for (;;) {
    const batch = await ports.campaigns.listCampaigns(caller.organizationId, {
      limit: Math.min(query.limit - page.length, MAX_EXAMINED - examined),
      ...(cursor === undefined ? {} : { cursor }),
    });
    examined += batch.campaigns.length;
    const inScope = batch.campaigns.filter((campaign) => campaign.organizationId === caller.organizationId && isJobInScope(caller, campaign));
    const views = await viewsOf(ports, inScope, reading);
    page.push(...views.filter((view) => query.state === undefined || view.state === query.state));
    cursor = batch.nextCursor;
    if (cursor === undefined) return { campaigns: page, nextCursor: null };
    if (page.length >= query.limit || examined >= MAX_EXAMINED) return { campaigns: page, nextCursor: encodeCursor(cursor, state) };
  }
}
