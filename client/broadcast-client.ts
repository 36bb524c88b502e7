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

export interface BroadcastClientOptions {
  /** The broadcast API's URL, ending with `/prod/api/v2` (or the origin serving it). */
  baseUrl: string;
  apiKey: string;
  /** Waits; replaced in tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Told about each wait (rate limit or transient failure), e.g. to show it next to a progress bar. */
  onWait?: (seconds: number, reason: string) => void;
  /** Attempts per call for 429 and transient answers (default 8). */
  maxAttempts?: number;
  fetch?: (input: Request) => Promise<Response>;
}

export type TemplateRecord = paths['/prod/api/v2/broadcast/public/templates']['get']['responses'][200]['content']['application/json']['data'][number];
export type BroadcastRequest = paths['/prod/api/v2/broadcast/public/send-template-broadcast']['post']['requestBody']['content']['application/json'];
export type JobStatus = paths['/prod/api/v2/broadcast/public/status/{jobId}']['get']['responses'][200]['content']['application/json']['data'];

/** The filters of `GET /broadcasts` (status, time range, page size as text, cursor). */
export type BroadcastsQuery = NonNullable<paths['/prod/api/v2/broadcast/public/broadcasts']['get']['parameters']['query']>;

/** A page of `GET /broadcasts` (its entries as the service lists them). */
export interface BroadcastsPage {
  broadcasts: Array<{ jobId: string; broadcastName: string | null; status: string; totalRecipients: number; summary: Record<string, unknown>; createdAt: string; scheduledAt: string | null; template: { name: string; language: string } | null }>;
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

/** The job an Idempotency-Key past its window was used for (a 422's `data.error.earlierJob`). */
export interface EarlierJob {
  jobId: string;
  acceptedAt: string;
}

export class BroadcastApiError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
    readonly code?: string,
    /** Set on a send refused because its key was already used, longer ago than the key's window, for this job. */
    readonly earlierJob?: EarlierJob,
  ) {
    super(message);
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Answer<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** Message and code of a refusal in the service's envelope (`data.error`, with the earlier job a used key names), else the status line. */
function describeRefusal(error: unknown, response: Response): { message: string; code?: string; earlierJob?: EarlierJob } {
  if (typeof error === 'object' && error !== null) {
    const body = error as { message?: unknown; data?: { error?: { code?: unknown; message?: unknown; earlierJob?: Partial<EarlierJob> } } };
    const code = typeof body.data?.error?.code === 'string' ? body.data.error.code : undefined;
    const message = typeof body.message === 'string' ? body.message : typeof body.data?.error?.message === 'string' ? body.data.error.message : undefined;
    const earlier = body.data?.error?.earlierJob;
    const earlierJob = typeof earlier?.jobId === 'string' && typeof earlier.acceptedAt === 'string' ? { jobId: earlier.jobId, acceptedAt: earlier.acceptedAt } : undefined;
    if (message) return { message, code, ...(earlierJob ? { earlierJob } : {}) };
  }
  return { message: typeof error === 'string' && error !== '' ? error.slice(0, 300) : `HTTP ${response.status} ${response.statusText}` };
}

/** Seconds to wait after a 429: the Retry-After header, else the body's retryAfterSeconds, else 1. */
function retryAfterSeconds(error: unknown, response: Response): number {
  const header = Number(response.headers.get('retry-after'));
  if (Number.isFinite(header) && header > 0) return header;
  const body = typeof error === 'object' && error !== null ? (error as { retryAfterSeconds?: unknown }) : {};
  return typeof body.retryAfterSeconds === 'number' && body.retryAfterSeconds > 0 ? body.retryAfterSeconds : 1;
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
  const sleep = options.sleep ?? defaultSleep;
  const maxAttempts = options.maxAttempts ?? 8;

  /**
   * Calls until an answer that is neither a 429 nor transient: 429 waits for Retry-After; 500, 502,
   * 503, 504 and a refused connection back off exponentially (from 1 s, at most 16 s); 409
   * IDEMPOTENCY_KEY_IN_PROGRESS (the first attempt still runs) waits 2 s. `retryTransient` is false
   * for nothing the CLI calls: every call is a read or a keyed send.
   */
  async function call<Data>(what: string, attempt: () => Promise<Answer<Data>>): Promise<{ data: Data; response: Response }> {
    for (let tries = 1; ; tries += 1) {
      let answer: Answer<Data>;
      try {
        answer = await attempt();
      } catch (error) {
        if (tries >= maxAttempts) throw new BroadcastApiError(`${what}: ${(error as Error).message}`, 0);
        const seconds = Math.min(16, 2 ** (tries - 1));
        options.onWait?.(seconds, `${what}: ${(error as Error).message}`);
        await sleep(seconds * 1000);
        continue;
      }
      const { response, data, error } = answer;
      if (response.ok && data !== undefined) return { data, response };
      const refusal = describeRefusal(error, response);
      let waitSeconds: number | undefined;
      if (response.status === 429) waitSeconds = retryAfterSeconds(error, response);
      else if ([500, 502, 503, 504].includes(response.status)) waitSeconds = Math.min(16, 2 ** (tries - 1));
      else if (response.status === 409 && refusal.code === 'IDEMPOTENCY_KEY_IN_PROGRESS') waitSeconds = 2;
      if (waitSeconds === undefined || tries >= maxAttempts) {
        throw new BroadcastApiError(`${what}: ${response.status} ${refusal.message}`, response.status, refusal.code, refusal.earlierJob);
      }
      options.onWait?.(waitSeconds, `${what}: ${response.status} ${refusal.message}`);
      await sleep(waitSeconds * 1000);
    }
  }

  return {
    /** The approved templates of a sender (name, language, category, components). */
    async listTemplates(phoneNumber: string): Promise<TemplateRecord[]> {
      const { data } = await call('GET templates', () => client.GET('/prod/api/v2/broadcast/public/templates', { params: { query: { phone_number: phoneNumber } } }));
      return data.data;
    },

    /** Sends one request; with the same key and body a repeat gets the first answer again. */
    async sendTemplateBroadcast(body: BroadcastRequest, idempotencyKey: string): Promise<AcceptedBroadcast> {
      const { data, response } = await call('POST send-template-broadcast', () =>
        client.POST('/prod/api/v2/broadcast/public/send-template-broadcast', { body, params: { header: { 'Idempotency-Key': idempotencyKey } } }),
      );
      const job = data.data as { jobId?: string; scheduledAt?: string };
      const jobId = job.jobId ?? response.headers.get('x-broadcast-job-id');
      if (!jobId) throw new BroadcastApiError('POST send-template-broadcast: the answer names no job (no data.jobId, no X-Broadcast-Job-Id header)', response.status);
      const replayed = response.headers.get('idempotent-replayed') === 'true';
      return { httpStatus: response.status, jobId, message: data.message, ...(job.scheduledAt ? { scheduledAt: job.scheduledAt } : {}), ...(replayed ? { replayed } : {}) };
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
