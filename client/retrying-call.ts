/**
 * The waiting and retrying every broadcast-API client shares (client/broadcast-client.ts, the typed
 * one; client/campaign-client.ts, audiences and campaigns): 429s wait for the interval the service
 * names (`Retry-After`), transient answers back off, a refusal becomes a BroadcastApiError in the
 * service's words.
 */

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

export interface RetryOptions {
  /** Waits; replaced in tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Told about each wait (rate limit or transient failure), e.g. to show it next to a progress bar. */
  onWait?: (seconds: number, reason: string) => void;
  /** Attempts per call for 429 and transient answers (default 8). */
  maxAttempts?: number;
  /**
   * False for a write without an Idempotency-Key (creating an audience or a campaign): a 5xx or a
   * dropped connection may have acted, so only a 429 (refused before acting) is retried.
   */
  retryTransient?: boolean;
}

/** One attempt's outcome as openapi-fetch answers it: `data` on success, `error` (the parsed body) otherwise. */
export interface Answer<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Message and code of a refusal in the service's envelope (`data.error`, with the earlier job a used key names), else the status line. */
function describeRefusal(error: unknown, response: Response): { message: string; code?: string; earlierJob?: EarlierJob } {
  if (typeof error === 'object' && error !== null) {
    const body = error as { message?: unknown; data?: { error?: { code?: unknown; message?: unknown; earlierJob?: Partial<EarlierJob> } } };
    const code = typeof body.data?.error?.code === 'string' ? body.data.error.code : undefined;
    const message = typeof body.message === 'string' ? body.message : typeof body.data?.error?.message === 'string' ? body.data.error.message : undefined;
    const earlier = body.data?.error?.earlierJob;
    const earlierJob =
      typeof earlier?.jobId === 'string' && typeof earlier.acceptedAt === 'string' ? { jobId: earlier.jobId, acceptedAt: earlier.acceptedAt } : undefined;
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
 * A caller that repeats `attempt` until an answer that is neither a 429 nor transient: 429 waits
 * for Retry-After; 500, 502, 503, 504 and a refused connection back off exponentially (from 1 s,
 * at most 16 s); 409 IDEMPOTENCY_KEY_IN_PROGRESS (the first attempt still runs) waits 2 s. Unkeyed
 * writes set `retryTransient: false`, so a retry can never act twice.
 *
 * @example
 * const call = retryingCaller({ onWait: (s, why) => console.error(`waiting ${s} s: ${why}`) });
 * const { data } = await call('GET audiences', () => fetchAnswer(request));
 */
export function retryingCaller(options: RetryOptions) {
  const sleep = options.sleep ?? defaultSleep;
  const maxAttempts = options.maxAttempts ?? 8;
  return async function call<Data>(what: string, attempt: () => Promise<Answer<Data>>): Promise<{ data: Data; response: Response }> {
    for (let tries = 1; ; tries += 1) {
      let answer: Answer<Data>;
      try {
        answer = await attempt();
      } catch (error) {
        if (tries >= maxAttempts || options.retryTransient === false) throw new BroadcastApiError(`${what}: ${(error as Error).message}`, 0);
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
      else if ([500, 502, 503, 504].includes(response.status) && options.retryTransient !== false) waitSeconds = Math.min(16, 2 ** (tries - 1));
      else if (response.status === 409 && refusal.code === 'IDEMPOTENCY_KEY_IN_PROGRESS') waitSeconds = 2;
      if (waitSeconds === undefined || tries >= maxAttempts) {
        throw new BroadcastApiError(`${what}: ${response.status} ${refusal.message}`, response.status, refusal.code, refusal.earlierJob);
      }
      options.onWait?.(waitSeconds, `${what}: ${response.status} ${refusal.message}`);
      await sleep(waitSeconds * 1000);
    }
  };
}
