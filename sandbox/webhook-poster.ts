/**
 * POSTs signed webhook bodies the way Meta does: `X-Hub-Signature-256` over the exact bytes sent,
 * retried with exponential backoff on a non-2xx answer or a network error (bounded by
 * `maxAttempts`, where Meta keeps trying for days), at most `concurrency` requests in flight.
 *
 * Every attempt is recorded for tests (`GET /_sandbox/webhooks/deliveries`), keeping the last
 * DELIVERY_LOG_LIMIT. A receiver that is down or not there yet (404) never stops the sandbox: the
 * first failure of a streak is logged in one line, the rest are counted.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { hubSignature, type DeliveryStatus } from './webhook-payloads';
import type { WebhookTarget } from './webhook-settings';

export const DELIVERY_LOG_LIMIT = 20_000;
const MAX_BACKOFF_MS = 10_000;

/** One POST attempt, as `GET /_sandbox/webhooks/deliveries` lists it. */
export interface WebhookDelivery {
  /** Same for every attempt of one body. */
  postId: number;
  attempt: number;
  url: string;
  /** When the answer (or the error) came, ISO. */
  at: string;
  /** HTTP status answered; null on a network error or timeout. */
  status: number | null;
  ok: boolean;
  error?: string;
  /** What the body reports, e.g. ["sent", "delivered"], ["inbound"], ["template:PAUSED"]. */
  events: string[];
  signature: string;
  /** The exact raw body posted. */
  body: string;
}

export interface WebhookStats {
  /** Statuses waiting for their time, or in an open batch. */
  scheduled: number;
  /** Bodies waiting for a free connection or for their retry. */
  queued: number;
  inFlight: number;
  attempts: number;
  succeeded: number;
  failedAttempts: number;
  /** Bodies given up after `maxAttempts`. */
  dropped: number;
  /** Statuses in bodies the receiver accepted (2xx), by status. */
  acceptedStatuses: Record<DeliveryStatus, number>;
  /** ISO time of the last 2xx answer. */
  lastAcceptedAt: string | null;
}

export interface OutgoingBody {
  body: string;
  events: string[];
  /** Statuses it carries, counted into acceptedStatuses on success. */
  statuses: DeliveryStatus[];
}

export interface PosterSettings {
  maxAttempts: number;
  retryBaseMs: number;
  requestTimeoutMs: number;
  concurrency: number;
}

interface Pending extends OutgoingBody {
  postId: number;
  attempt: number;
  target: WebhookTarget;
}

export class WebhookPoster {
  private readonly queue: Pending[] = [];
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<ClientRequest>();
  private deliveries: WebhookDelivery[] = [];
  private nextPostId = 1;
  private generation = 0;
  private failing = false;
  private readonly httpAgent = new HttpAgent({ keepAlive: true });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true });
  private counters = WebhookPoster.zeroCounters();

  constructor(
    private readonly settings: () => PosterSettings,
    private readonly onSettled: () => void,
    private readonly log: (line: string) => void,
  ) {}

  private static zeroCounters() {
    return {
      attempts: 0,
      succeeded: 0,
      failedAttempts: 0,
      dropped: 0,
      acceptedStatuses: { sent: 0, delivered: 0, read: 0, failed: 0 } as Record<DeliveryStatus, number>,
      lastAcceptedAt: null as string | null,
    };
  }

  post(target: WebhookTarget, outgoing: OutgoingBody): void {
    this.queue.push({ ...outgoing, target, postId: this.nextPostId++, attempt: 1 });
    this.pump();
  }

  get idle(): boolean {
    return this.queue.length === 0 && this.retryTimers.size === 0 && this.inFlight.size === 0;
  }

  stats(scheduled: number): WebhookStats {
    return {
      scheduled,
      queued: this.queue.length + this.retryTimers.size,
      inFlight: this.inFlight.size,
      ...this.counters,
      acceptedStatuses: { ...this.counters.acceptedStatuses },
    };
  }

  listDeliveries(limit?: number): WebhookDelivery[] {
    return limit === undefined ? this.deliveries.slice() : this.deliveries.slice(Math.max(0, this.deliveries.length - limit));
  }

  clearDeliveries(): void {
    this.deliveries = [];
    this.counters = WebhookPoster.zeroCounters();
  }

  /** Drops queued bodies and pending retries; answers of requests still in flight are ignored (no retry, no record). */
  dropPending(): void {
    this.generation += 1;
    this.queue.length = 0;
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    this.failing = false;
  }

  reset(): void {
    this.dropPending();
    this.clearDeliveries();
  }

  close(): void {
    this.reset();
    for (const request of this.inFlight) request.destroy();
    this.inFlight.clear();
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private pump(): void {
    while (this.inFlight.size < this.settings().concurrency && this.queue.length > 0) {
      this.send(this.queue.shift()!);
    }
  }

  private send(pending: Pending): void {
    const generation = this.generation;
    const url = new URL(pending.target.url);
    const signature = hubSignature(pending.body, pending.target.appSecret);
    const payload = Buffer.from(pending.body, 'utf8');
    const secure = url.protocol === 'https:';
    let settled = false;
    const finish = (status: number | null, error?: string) => {
      if (settled) return;
      settled = true;
      this.inFlight.delete(request);
      if (generation === this.generation) this.record(pending, signature, status, error);
      this.pump();
      this.onSettled();
    };
    const request = (secure ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: {
          'content-type': 'application/json',
          'content-length': payload.length,
          'x-hub-signature-256': signature,
          'user-agent': 'facebookexternalua',
        },
        timeout: this.settings().requestTimeoutMs,
      },
      (response) => {
        response.resume();
        response.on('end', () => finish(response.statusCode ?? null));
        response.on('error', (error) => finish(null, error.message));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) => finish(null, error.message));
    this.inFlight.add(request);
    request.end(payload);
  }

  private record(pending: Pending, signature: string, status: number | null, error: string | undefined): void {
    const ok = status !== null && status >= 200 && status < 300;
    const at = new Date().toISOString();
    this.deliveries.push({
      postId: pending.postId,
      attempt: pending.attempt,
      url: pending.target.url,
      at,
      status,
      ok,
      ...(error === undefined ? {} : { error }),
      events: pending.events,
      signature,
      body: pending.body,
    });
    if (this.deliveries.length > DELIVERY_LOG_LIMIT * 2) this.deliveries = this.deliveries.slice(-DELIVERY_LOG_LIMIT);
    this.counters.attempts += 1;
    if (ok) {
      this.counters.succeeded += 1;
      this.counters.lastAcceptedAt = at;
      for (const statusName of pending.statuses) this.counters.acceptedStatuses[statusName] += 1;
      this.failing = false;
      return;
    }
    this.counters.failedAttempts += 1;
    const { maxAttempts, retryBaseMs } = this.settings();
    if (!this.failing) {
      this.failing = true;
      // URL path only: a query string could carry something private.
      this.log(
        `Cloud API sandbox: webhook POST to ${new URL(pending.target.url).pathname} ${status === null ? `failed (${error})` : `answered ${status}`}; ` +
          'retrying; further failures are counted in GET /_sandbox/webhooks/deliveries until one succeeds',
      );
    }
    if (pending.attempt >= maxAttempts) {
      this.counters.dropped += 1;
      return;
    }
    const backoff = Math.min(MAX_BACKOFF_MS, retryBaseMs * 2 ** (pending.attempt - 1));
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.queue.push({ ...pending, attempt: pending.attempt + 1 });
      this.pump();
    }, backoff);
    this.retryTimers.add(timer);
  }
}
