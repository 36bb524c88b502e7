/**
 * The whole delivery loop as `npm start` runs it (demo tenant, sandbox posting Meta's signed
 * webhooks to the gateway, the endpoint queueing them, delivery-events applying them, the chunk
 * worker and the customer-events dispatcher on their SQS event sources), for one broadcast:
 *
 * - "last send → every recipient delivered": from the sandbox's acceptance of the job's last send
 *   until the status endpoint's summary counts every recipient delivered (polled every 100 ms).
 * - "Meta event → customer receiver": for each `message.status` event a registered loopback
 *   receiver gets, the time since the sandbox posted the webhook that carried it (p50 / p99).
 *
 * The sandbox answers in about a millisecond and posts `sent` and `delivered` at once (read: none),
 * so the figures are the platform's own delay, not Meta's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getServices } from '../functions/composition';
import { startLocalRuntime } from '../local/local-runtime';
import { getJobStatus } from '../shared/broadcast/get-job-status';
import { startScriptedReceiver } from '../test/support/scripted-receiver';
import { percentile, sleep } from './lib/stats';
import { withRestoredEnvironment } from './lib/workload';

export interface DeliveryLoopBenchResult {
  recipients: number;
  drainSeconds: number;
  lastSendToAllDeliveredSeconds: number;
  deliveredWithinLimit: boolean;
  metaToReceiverMs: { p50: number; p99: number; samples: number };
}

const BASE = '/prod/api/v2/broadcast/public';

export async function benchDeliveryLoop(options: {
  recipients: number;
  timeLimitSeconds: number;
  log: (line: string) => void;
}): Promise<DeliveryLoopBenchResult> {
  return withRestoredEnvironment(async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-loop-'));
    const runtime = await startLocalRuntime({
      port: 0,
      persist: false,
      dataDirectory,
      sandbox: { throughputPerSecond: 1000, log: () => undefined },
      environment: { DEFAULT_MESSAGES_PER_SECOND: '1000', WORKER_MAX_IN_FLIGHT: '16' },
    });
    const receiver = await startScriptedReceiver(() => 200);
    try {
      const demo = runtime.demo!;
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${runtime.baseUrl}${path}`, {
          method,
          headers: { 'x-api-key': demo.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, headers: response.headers, body: (await response.json()) as any };
      };
      const control = (path: string, body: unknown) =>
        fetch(`${runtime.sandboxUrl}/_sandbox${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await control('/webhooks', { sentDelayMs: 0, deliveredDelayMs: 0, readRate: 0 });
      const registered = await call('POST', `${BASE}/webhooks`, { url: receiver.url, events: ['message.status'] });
      if (registered.status !== 201) throw new Error(`registering the receiver answered ${registered.status}`);

      const data = Array.from({ length: options.recipients }, (_, index) => ({
        countryCode: '91',
        toPhoneNumber: String(9_600_000_000 + index),
        templateParams: [`Name${index}`, `ORD-${index}`],
      }));
      const started = performance.now();
      const accepted = await call('POST', `${BASE}/send-template-broadcast`, {
        broadcastName: 'delivery loop bench',
        fromPhoneNumber: demo.phoneNumbers[0],
        templateName: 'order_update',
        templateLanguage: 'en_US',
        templateType: 'UTILITY',
        data,
      });
      const jobId = accepted.headers.get('x-broadcast-job-id');
      if (!jobId) throw new Error(`the broadcast answered ${accepted.status} without a job id: ${JSON.stringify(accepted.body).slice(0, 300)}`);

      const deadline = Date.now() + options.timeLimitSeconds * 1000;
      // Through the use case, not GET /status (30 a minute per key).
      let summary: { sent: number; delivered: number } = { sent: 0, delivered: 0 };
      while (Date.now() < deadline) {
        summary = (await getJobStatus(getServices().broadcast.broadcasts, { organizationId: demo.organizationId }, jobId)).summary;
        if (summary.delivered >= options.recipients) break;
        await sleep(250);
      }
      const allDeliveredAt = Date.now();
      const drainSeconds = (performance.now() - started) / 1000;
      const sends = runtime.sandbox!.acceptedMessages().map((message) => Date.parse(message.receivedAt));
      const lastSendAt = Math.max(...sends);
      await runtime.workersIdle();

      // Sandbox POST time of each (message id, status), from its delivery log.
      const posted = new Map<string, number>();
      const deliveries = (await (await fetch(`${runtime.sandboxUrl}/_sandbox/webhooks/deliveries?limit=20000`)).json()) as {
        data: Array<{ at: string; ok: boolean; body: string }>;
      };
      for (const delivery of deliveries.data) {
        if (!delivery.ok) continue;
        const body = JSON.parse(delivery.body) as { entry: Array<{ changes: Array<{ value: { statuses?: Array<{ id: string; status: string }> } }> }> };
        for (const entry of body.entry)
          for (const change of entry.changes)
            for (const status of change.value.statuses ?? []) posted.set(`${status.id}:${status.status}`, Date.parse(delivery.at));
      }
      const delays = receiver.requests.flatMap((request) => {
        const event = JSON.parse(request.rawBody) as { data: { messageId: string; status: string } };
        const at = posted.get(`${event.data.messageId}:${event.data.status.toLowerCase()}`);
        return at === undefined ? [] : [request.receivedAt - at];
      });
      delays.sort((a, b) => a - b);
      const result: DeliveryLoopBenchResult = {
        recipients: options.recipients,
        drainSeconds,
        lastSendToAllDeliveredSeconds: (allDeliveredAt - lastSendAt) / 1000,
        deliveredWithinLimit: summary.delivered >= options.recipients,
        metaToReceiverMs: { p50: percentile(delays, 50), p99: percentile(delays, 99), samples: delays.length },
      };
      options.log(`  delivery loop: ${summary.delivered}/${options.recipients} delivered; ${delays.length} events timed at the receiver`);
      return result;
    } finally {
      await receiver.close();
      await runtime.stop();
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  });
}
