/**
 * Meta's webhook endpoint under load: signed status batches POSTed to /hooks/meta/whatsapp
 * (local gateway → meta-webhook handler: settings read + cached decryption, HMAC check,
 * SendMessage to fauxqs), by `concurrency` clients. Reports accepted batches per second and the
 * latency of each answer; the goal is p99 ≤ 50 ms locally. Every accepted batch is then counted
 * on the metaEvents queue (nothing consumes it during the run).
 *
 * Loopback only, bounded in count and time. Alone: `npx tsx bench/webhook-ingest.ts [requests] [concurrency]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { signWebhookBody } from '../shared/meta-app/webhook-signature';
import { percentile } from './lib/stats';

export interface WebhookIngestOptions {
  /** Measured POSTs. Default 3,000. */
  requests?: number;
  /** Concurrent senders (Meta opens several connections). Default 10. */
  concurrency?: number;
  /** Unmeasured POSTs first (connection pools, JIT, the decryption cache). Default 100. */
  warmup?: number;
  /** No POST starts later than this after the measured phase began. Default 60 s. */
  maxDurationMs?: number;
}

export interface WebhookIngestResult {
  requests: number;
  concurrency: number;
  accepted: number;
  refused: number;
  acceptedPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** Messages on the metaEvents queue after the run (warm-up included): must equal every accepted POST. */
  queued: number;
  bodyBytes: number;
  goal: { text: string; met: boolean };
  truncated: boolean;
}

const appSecret = 'bench-meta-app-secret';

/** A realistic batch: three status updates (sent, delivered, read) of one business number. */
function statusBatch(index: number): string {
  const status = (name: string, offset: number) => ({
    id: `wamid.HBgLMTU1NTEyMzQ1NjcVAgARGBI${index.toString(16).padStart(12, '0')}`,
    status: name,
    timestamp: String(1_700_000_000 + index + offset),
    recipient_id: '15551234567',
    biz_opaque_callback_data: `b1:pub_bench:${Math.floor(index / 1000)}:${index % 1000}`,
  });
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550100001', phone_number_id: '110000000000001' },
              statuses: [status('sent', 0), status('delivered', 1), status('read', 2)],
            },
          },
        ],
      },
    ],
  });
}

export async function runWebhookIngestBench(options: WebhookIngestOptions = {}): Promise<WebhookIngestResult> {
  const requests = options.requests ?? 3_000;
  const concurrency = options.concurrency ?? 10;
  const warmup = options.warmup ?? 100;
  const maxDurationMs = options.maxDurationMs ?? 60_000;
  const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-webhook-'));
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  const { startLocalRuntime } = await import('../local/local-runtime');
  const { getServices } = await import('../functions/composition');
  const runtime = await startLocalRuntime({ port: 0, dataDirectory, persist: false, seedDemo: false, startWorkers: false });
  try {
    await getServices().metaApp.configure({ appSecret, verifyToken: 'bench-verify-token' });
    const url = `${runtime.baseUrl}/hooks/meta/whatsapp`;
    const bodies = Array.from({ length: requests + warmup }, (_, index) => statusBatch(index));
    const signatures = bodies.map((body) => signWebhookBody(body, appSecret));

    const run = async (from: number, count: number, deadline: number) => {
      const samples: number[] = [];
      let refused = 0;
      let next = from;
      let truncated = false;
      const started = performance.now();
      const client = async () => {
        while (next < from + count) {
          if (Date.now() > deadline) {
            truncated = true;
            return;
          }
          const index = next++;
          const begin = performance.now();
          try {
            const response = await fetch(url, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-hub-signature-256': signatures[index]! },
              body: bodies[index],
            });
            await response.arrayBuffer();
            if (response.status === 200) samples.push(performance.now() - begin);
            else refused += 1;
          } catch {
            refused += 1;
          }
        }
      };
      await Promise.all(Array.from({ length: concurrency }, client));
      return { samples, refused, elapsedMs: performance.now() - started, truncated };
    };

    const warm = await run(0, warmup, Date.now() + maxDurationMs);
    const measured = await run(warmup, requests, Date.now() + maxDurationMs);
    const attributes = await runtime.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: runtime.queueUrls.metaEvents, AttributeNames: ['ApproximateNumberOfMessages'] }),
    );
    const p99 = percentile(measured.samples, 99);
    return {
      requests,
      concurrency,
      accepted: measured.samples.length,
      refused: measured.refused,
      acceptedPerSecond: (measured.samples.length / measured.elapsedMs) * 1000,
      p50: percentile(measured.samples, 50),
      p99,
      max: Math.max(...measured.samples),
      queued: Number(attributes.Attributes?.ApproximateNumberOfMessages ?? Number.NaN) - warm.samples.length,
      bodyBytes: Buffer.byteLength(bodies[0]!),
      goal: { text: 'p99 ≤ 50 ms', met: p99 <= 50 && measured.refused === 0 },
      truncated: measured.truncated,
    };
  } finally {
    await runtime.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

const fixed = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');

export function describeWebhookIngest(result: WebhookIngestResult): string {
  return [
    `webhook ingest: ${result.requests} signed batches of ${result.bodyBytes} bytes, ${result.concurrency} concurrent senders${result.truncated ? ' (stopped at the time bound)' : ''}`,
    `accepted ${result.accepted} (refused ${result.refused}) at ${Math.round(result.acceptedPerSecond)}/s; p50=${fixed(result.p50)} ms p99=${fixed(result.p99)} ms max=${fixed(result.max)} ms`,
    `on the metaEvents queue afterwards: ${result.queued} of ${result.accepted} accepted (goal ${result.goal.text}: ${result.goal.met ? 'met' : 'NOT met'})`,
  ].join('\n');
}

if (require.main === module) {
  const [requests, concurrency] = process.argv.slice(2).map(Number);
  runWebhookIngestBench({ requests: requests || undefined, concurrency: concurrency || undefined })
    .then((result) => {
      console.log(describeWebhookIngest(result));
      process.exit(0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
