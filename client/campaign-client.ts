/**
 * A client of the broadcast API's audiences and campaigns (docs/CAMPAIGNS.md), with the waiting and
 * retries of the typed client (client/retrying-call.ts). Plain fetch over the documented shapes:
 * the CLI's `audience` and `campaign` commands are its users.
 */
import { originOf } from './broadcast-client';
import { retryingCaller, type Answer, type RetryOptions } from './retrying-call';

export interface CampaignClientOptions extends RetryOptions {
  /** The broadcast API's URL, ending with `/prod/api/v2` (or the origin serving it). */
  baseUrl: string;
  apiKey: string;
}

export interface AudienceSummary {
  audienceId: string;
  name: string;
  memberCount: number;
  createdAt: string;
  updatedAt?: string;
}

/** A member as `POST /audiences/{id}/members` takes it (a number, or a business-scoped user id). */
export type MemberInput = ({ countryCode: string; toPhoneNumber: string; userId?: string } | { userId: string }) & {
  attributes?: Record<string, string>;
  tags?: string[];
};

export interface MembersAnswer {
  added: number;
  updated: number;
  invalid: Array<{ index: number; field: string; rule: string }>;
  /** The answer is the first answer to this Idempotency-Key (`Idempotent-Replayed: true`): nothing was written now. */
  replayed: boolean;
}

/** `GET /campaigns/{id}` (docs/CAMPAIGNS.md); the fields the CLI reads, the rest kept as given. */
export interface CampaignView {
  campaignId: string;
  name: string;
  state: string;
  totals: Record<string, number>;
  failuresByCode?: Record<string, number> | null;
  cost?: unknown;
  skippedByReason?: Record<string, number> | null;
  waitingUntil?: string | null;
  scheduledAt?: string | null;
  [field: string]: unknown;
}

/** A page of a CSV export: its text and the `X-Next-Cursor` header (null: the last page). */
export interface CsvPage {
  csv: string;
  nextCursor: string | null;
}

const base = '/prod/api/v2/broadcast/public';

/**
 * The audiences and campaigns client.
 *
 * @example
 * const client = createCampaignClient({ baseUrl: 'http://localhost:3000/prod/api/v2', apiKey });
 * const { audienceId } = await client.createAudience('VIP customers');
 */
export function createCampaignClient(options: CampaignClientOptions) {
  const origin = originOf(options.baseUrl);
  const call = retryingCaller(options);
  const callOnce = retryingCaller({ ...options, retryTransient: false });

  async function request<Data>(
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string>; text?: boolean } = {},
  ): Promise<Answer<Data>> {
    const response = await fetch(`${origin}${base}${path}`, {
      method,
      headers: { 'x-api-key': options.apiKey, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await response.text();
    let parsed: unknown = text;
    if (!init.text || !response.ok) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (!response.ok) return { error: parsed, response };
    return { data: (init.text ? text : (parsed as { data: Data }).data) as Data, response };
  }
  const query = (entries: Record<string, string | undefined>) => {
    const search = new URLSearchParams(Object.entries(entries).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return search.size > 0 ? `?${search}` : '';
  };
  const id = encodeURIComponent;

  return {
    async createAudience(name: string): Promise<AudienceSummary> {
      return (await callOnce('POST audiences', () => request<AudienceSummary>('POST', '/audiences', { body: { name } }))).data;
    },
    async listAudiences(page: { limit?: string; cursor?: string } = {}): Promise<{ audiences: AudienceSummary[]; nextCursor: string | null }> {
      return (await call('GET audiences', () => request<{ audiences: AudienceSummary[]; nextCursor: string | null }>('GET', `/audiences${query(page)}`))).data;
    },
    async audience(audienceId: string): Promise<AudienceSummary & Record<string, unknown>> {
      return (await call(`GET audiences/${audienceId}`, () => request<AudienceSummary & Record<string, unknown>>('GET', `/audiences/${id(audienceId)}`))).data;
    },
    /** Upserts up to 10,000 members; with the same key and body a repeat gets the first answer again. */
    async addMembers(audienceId: string, members: MemberInput[], idempotencyKey: string): Promise<MembersAnswer> {
      const { data, response } = await call(`POST audiences/${audienceId}/members`, () =>
        request<Omit<MembersAnswer, 'replayed'>>('POST', `/audiences/${id(audienceId)}/members`, {
          body: { members },
          headers: { 'Idempotency-Key': idempotencyKey },
        }),
      );
      return { added: data.added, updated: data.updated, invalid: data.invalid ?? [], replayed: response.headers.get('idempotent-replayed') === 'true' };
    },
    async createCampaign(body: unknown): Promise<{ campaignId: string; name: string; state: string; createdAt: string }> {
      return (
        await callOnce('POST campaigns', () => request<{ campaignId: string; name: string; state: string; createdAt: string }>('POST', '/campaigns', { body }))
      ).data;
    },
    async launchCampaign(campaignId: string, idempotencyKey: string): Promise<{ campaignId: string; state: string }> {
      const headers = { 'Idempotency-Key': idempotencyKey };
      return (
        await call(`POST campaigns/${campaignId}/launch`, () =>
          request<{ campaignId: string; state: string }>('POST', `/campaigns/${id(campaignId)}/launch`, { headers }),
        )
      ).data;
    },
    /** The dry run: what a launch would do, nothing sent (docs/CAMPAIGNS.md "Dry run"). */
    async dryRunCampaign(campaignId: string): Promise<Record<string, unknown>> {
      return (
        await call(`POST campaigns/${campaignId}/launch?dryRun=true`, () =>
          request<Record<string, unknown>>('POST', `/campaigns/${id(campaignId)}/launch?dryRun=true`),
        )
      ).data;
    },
    async campaign(campaignId: string): Promise<CampaignView> {
      return (await call(`GET campaigns/${campaignId}`, () => request<CampaignView>('GET', `/campaigns/${id(campaignId)}`))).data;
    },
    /** One page of the recipients CSV; `nextCursor` from `X-Next-Cursor` (absent: the whole list was this answer). */
    async recipientsCsvPage(campaignId: string, cursor?: string): Promise<CsvPage> {
      const { data, response } = await call(`GET campaigns/${campaignId}/recipients?format=csv`, () =>
        request<string>('GET', `/campaigns/${id(campaignId)}/recipients${query({ format: 'csv', cursor })}`, { text: true }),
      );
      return { csv: data, nextCursor: response.headers.get('x-next-cursor') || null };
    },
  };
}

export type CampaignClient = ReturnType<typeof createCampaignClient>;
