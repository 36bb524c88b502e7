/**
 * A typed client of the broadcast API (`{base_url}` = the stage URL ending in `/prod/api/v2`),
 * built with openapi-fetch over the types generated from the OpenAPI document
 * (client/api-types.ts, `npm run client:generate`). It waits out 429s for the interval the
 * service names (`Retry-After`) and retries transient answers; a send is only retried with its
 * Idempotency-Key, so a retry can never send twice.
 */
import createClient from 'openapi-fetch';
import { surfaces } from '../runtime-contract/route-manifest';
import type { paths } from './api-types';
import { BroadcastApiError, retryingCaller, type RetryOptions } from './retrying-call';

export { BroadcastApiError, type EarlierJob } from './retrying-call';

export interface BroadcastClientOptions extends RetryOptions {
  /** The broadcast API's URL, ending with `/prod/api/v2` (or the origin serving it). */
  baseUrl: string;
  apiKey: string;
  fetch?: (input: Request) => Promise<Response>;
}

export type TemplateRecord = paths['/prod/api/v2/broadcast/public/templates']['get']['responses'][200]['content']['application/json']['data'][number];
export type BroadcastRequest = paths['/prod/api/v2/broadcast/public/send-template-broadcast']['post']['requestBody']['content']['application/json'];
export type JobStatus = paths['/prod/api/v2/broadcast/public/status/{jobId}']['get']['responses'][200]['content']['application/json']['data'];

/** The filters of `GET /broadcasts` (status, time range, page size as text, cursor). */
export type BroadcastsQuery = NonNullable<paths['/prod/api/v2/broadcast/public/broadcasts']['get']['parameters']['query']>;

/** A page of `GET /broadcasts` (its entries as the service lists them). */
export interface BroadcastsPage {
  broadcasts: Array<{
    jobId: string;
    broadcastName: string | null;
    status: string;
    totalRecipients: number;
    summary: Record<string, unknown>;
    createdAt: string;
    scheduledAt: string | null;
    template: { name: string; language: string } | null;
  }>;
  nextCursor: string | null;
}

export interface AcceptedBroadcast {
  /** 200 (1,000 recipients or fewer, sent at once) or 202 (a job in chunks, or scheduled). */
  httpStatus: number;
  /** True when the service answered from the Idempotency-Key's first answer (`Idempotent-Replayed`): nothing was sent now. */
  replayed?: boolean;
  /** From `data.jobId`, else the `X-Broadcast-Job-Id` header. */
  jobId: string;
  message: string;
  scheduledAt?: string;
}

/**
 * The document's paths carry each surface's stage and base path (`/prod/api/v2/broadcast/…`), so
 * the client's base is the origin: the broadcast API URL (`…/prod/api/v2`, the stack output
 * BroadcastApiUrl) loses that suffix; an origin is taken as it is.
 */
export function originOf(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  const suffix = `/${surfaces.broadcast.stage}${surfaces.broadcast.basePath}`;
  return trimmed.endsWith(suffix) ? trimmed.slice(0, -suffix.length) : trimmed;
}

export function createBroadcastClient(options: BroadcastClientOptions) {
  const client = createClient<paths>({
    baseUrl: originOf(options.baseUrl),
    headers: { 'x-api-key': options.apiKey },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const call = retryingCaller(options);

  return {
    /** The approved templates of a sender (name, language, category, components). */
    async listTemplates(phoneNumber: string): Promise<TemplateRecord[]> {
      const { data } = await call('GET templates', () =>
        client.GET('/prod/api/v2/broadcast/public/templates', { params: { query: { phone_number: phoneNumber } } }),
      );
      return data.data;
    },

    /** Sends one request; with the same key and body a repeat gets the first answer again. */
    async sendTemplateBroadcast(body: BroadcastRequest, idempotencyKey: string): Promise<AcceptedBroadcast> {
      const { data, response } = await call('POST send-template-broadcast', () =>
        client.POST('/prod/api/v2/broadcast/public/send-template-broadcast', { body, params: { header: { 'Idempotency-Key': idempotencyKey } } }),
      );
      const job = data.data as { jobId?: string; scheduledAt?: string };
      const jobId = job.jobId ?? response.headers.get('x-broadcast-job-id');
      if (!jobId)
        throw new BroadcastApiError('POST send-template-broadcast: the answer names no job (no data.jobId, no X-Broadcast-Job-Id header)', response.status);
      const replayed = response.headers.get('idempotent-replayed') === 'true';
      return {
        httpStatus: response.status,
        jobId,
        message: data.message,
        ...(job.scheduledAt ? { scheduledAt: job.scheduledAt } : {}),
        ...(replayed ? { replayed } : {}),
      };
    },

    /** One page of the organization's broadcasts, newest first (docs/BROADCAST.md "Listing broadcasts"). */
    async listBroadcasts(query: BroadcastsQuery = {}): Promise<BroadcastsPage> {
      const { data } = await call('GET broadcasts', () => client.GET('/prod/api/v2/broadcast/public/broadcasts', { params: { query } }));
      return data.data as unknown as BroadcastsPage;
    },

    async jobStatus(jobId: string): Promise<JobStatus> {
      const { data } = await call(`GET status/${jobId}`, () => client.GET('/prod/api/v2/broadcast/public/status/{jobId}', { params: { path: { jobId } } }));
      return data.data;
    },

    /** Every recipient of the job as the service's CSV (one answer, no paging: docs/BROADCAST.md "Recipients list"). */
    async recipientsCsv(jobId: string): Promise<string> {
      const { data } = await call(`GET broadcasts/${jobId}/recipients?format=csv`, () =>
        client.GET('/prod/api/v2/broadcast/public/broadcasts/{jobId}/recipients', { params: { path: { jobId }, query: { format: 'csv' } }, parseAs: 'text' }),
      );
      return data;
    },
  };
}

export type BroadcastClient = ReturnType<typeof createBroadcastClient>;
