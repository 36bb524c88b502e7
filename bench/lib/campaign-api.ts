/**
 * The audience and campaign routes of the public broadcast surface as the campaign bench calls
 * them (docs/CAMPAIGNS.md; the shapes of the API every campaign helper builds to), over plain
 * fetch with the organization's broadcast key. A 429 is waited out (its `Retry-After`) and asked
 * again, counted in `throttled`, so a route's rate limit shows in the figures instead of failing
 * the run; the timing is the answered attempt's.
 */
import type { CampaignTotals, CampaignView as ServedCampaignView } from '../../shared/campaigns/campaign-view';
import { sleep } from './stats';

export const PUBLIC_API = '/prod/api/v2/broadcast/public';

/** One row of POST /audiences/{id}/members. */
export interface MemberRow {
  countryCode: string;
  toPhoneNumber: string;
  attributes: Record<string, string | number | boolean>;
  tags: string[];
}

/** What the bench reads of a campaign: the served view's own fields (shared/campaigns/campaign-view.ts). */
export type CampaignView = Pick<ServedCampaignView, 'campaignId' | 'state' | 'totals' | 'jobId'>;
export type { CampaignTotals };

export interface Answer<T> {
  status: number;
  data: T;
  /** The answered attempt's round trip. */
  ms: number;
  /** 429s waited out before it. */
  throttled: number;
}

const MAX_THROTTLED = 30;

export class CampaignApi {
  /** 429s waited out over the client's life. */
  throttled = 0;

  constructor(
    private readonly baseUrl: string,
    /** The organization's broadcast key (other bench requests of the same organization use it too). */
    readonly apiKey: string,
  ) {}

  /** A request whose answer must have `expected` status; anything else throws with the answer's start. */
  async call<T>(method: string, path: string, expected: number, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    for (let throttled = 0; ; throttled += 1) {
      const started = performance.now();
      const response = await fetch(`${this.baseUrl}${PUBLIC_API}${path}`, {
        method,
        headers: { 'x-api-key': this.apiKey, ...(text === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(text === undefined ? {} : { body: text }),
      });
      const answer = await response.text();
      const ms = performance.now() - started;
      if (response.status === 429 && throttled < MAX_THROTTLED) {
        this.throttled += 1;
        await sleep(Math.max(1, Number(response.headers.get('retry-after') ?? '1')) * 1000);
        continue;
      }
      if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${answer.slice(0, 300)}`);
      return { status: response.status, data: (JSON.parse(answer) as { data: T }).data, ms, throttled };
    }
  }

  createAudience(name: string): Promise<Answer<{ audienceId: string; memberCount: number }>> {
    return this.call('POST', '/audiences', 201, { name });
  }

  addMembers(audienceId: string, members: readonly MemberRow[]): Promise<Answer<{ added: number; updated: number; invalid: unknown[] }>> {
    return this.call('POST', `/audiences/${encodeURIComponent(audienceId)}/members`, 200, { members });
  }

  getAudience(audienceId: string): Promise<Answer<{ audienceId: string; memberCount: number }>> {
    return this.call('GET', `/audiences/${encodeURIComponent(audienceId)}`, 200);
  }

  createCampaign(body: Record<string, unknown>): Promise<Answer<{ campaignId: string; state: string }>> {
    return this.call('POST', '/campaigns', 201, body);
  }

  launch(campaignId: string): Promise<Answer<{ campaignId: string; state: string }>> {
    return this.call('POST', `/campaigns/${encodeURIComponent(campaignId)}/launch`, 202);
  }

  getCampaign(campaignId: string): Promise<Answer<CampaignView>> {
    return this.call('GET', `/campaigns/${encodeURIComponent(campaignId)}`, 200);
  }

  cancel(campaignId: string): Promise<Answer<{ campaignId: string; state: string }>> {
    return this.call('POST', `/campaigns/${encodeURIComponent(campaignId)}/cancel`, 200);
  }
}
