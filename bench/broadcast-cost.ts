/**
 * Counted AWS requests of one broadcast INCLUDING its delivery events, for the cost estimate
 * (bench/cost.ts): accept (gateway → broadcast-send), drain (chunk worker → sandbox), and every
 * recipient's `sent`, `delivered` and `read` posted by the sandbox as Meta would (signed, to the
 * gateway's Meta webhook endpoint → metaEvents queue → delivery-events).
 *
 * The sandbox reports every accepted send (delivered rate 1, read rate 1, its default delays) and batches
 * the statuses of one number due together into one POST, up to `statusesPerPost` (Meta batches
 * under load; `statusesPerPost: 1` is one POST per status). The run ends when every recipient
 * reads READ in the job's summary and the queues are idle. Every request goes through the
 * handlers' own SDK clients with lib/request-counter.ts attached; chunk-worker and delivery-events
 * invocations are counted under their own scope (the gateway's requests, accept and Meta webhook,
 * under `other`: the server's sockets run outside the caller's async context).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context, SQSEvent } from 'aws-lambda';
import { getServices } from '../functions/composition';
import { chunkWorker, deliveryEvents, environmentOf, functions } from '../runtime-contract/resource-definitions';
import { startLocalRuntime } from '../local/local-runtime';
import { startSqsEventSource, type SqsBatchHandler } from '../local/sqs-event-source';
import { getJobStatus } from '../shared/broadcast/get-job-status';
import { sleep } from './lib/stats';
import { RequestCounter, type KeyWrites, type RequestCounts } from './lib/request-counter';
import { BROADCAST_PATH, broadcastBody, createBenchTenant, issueKey, withRestoredEnvironment } from './lib/workload';

export interface BroadcastCostRun {
  recipients: number;
  ratePerSecond: number;
  statusesPerPost: number;
  /** `known`: the organization messaged these recipients before (an earlier phase), so their identity pairs are stored. */
  audience: 'new' | 'known';
  /** Every recipient READ in the summary within the time limit. */
  completed: boolean;
  summary: Record<string, number>;
  /** Meta webhook POSTs accepted (one metaEvents message each). */
  webhookPosts: number;
  statuses: number;
  acceptMs: number;
  chunkInvocations: { count: number; totalMs: number };
  eventInvocations: { count: number; totalMs: number; failedRecords: number };
  requestCounts: RequestCounts;
  wallSeconds: number;
  /** With `trackKeyWrites`: the most written item keys (bench/scale-hot-items.ts). */
  hotKeys?: KeyWrites[];
  /** The sandbox's first to last `receivedAt` of the job's messages, and their count. */
  sends: { messages: number; spanSeconds: number };
}

const APP_SECRET = 'bench-cost-app-secret';

export interface BroadcastCostOptions {
  recipients: number;
  ratePerSecond: number;
  statusesPerPost: number;
  timeLimitSeconds: number;
  log: (line: string) => void;
  /** Count writes per item key too and return the `hotKeyCount` hottest (default 60). */
  trackKeyWrites?: boolean;
  hotKeyCount?: number;
}

/** One counted broadcast to a new audience (see benchBroadcastCosts). */
export async function benchBroadcastCost(options: BroadcastCostOptions): Promise<BroadcastCostRun> {
  const [run] = await benchBroadcastCosts({ ...options, phases: [{ statusesPerPost: options.statusesPerPost }] });
  return run!;
}

/**
 * The same broadcast (same recipients) once per phase, in one runtime, each counted alone: the
 * first to an audience the organization never messaged, the later ones to a known audience, each
 * with the sandbox posting up to its `statusesPerPost` statuses per POST.
 */
export async function benchBroadcastCosts(
  options: Omit<BroadcastCostOptions, 'statusesPerPost'> & { phases: ReadonlyArray<{ statusesPerPost: number }> },
): Promise<BroadcastCostRun[]> {
  return withRestoredEnvironment(async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-cost-'));
    const runtime = await startLocalRuntime({
      port: 0,
      persist: false,
      dataDirectory,
      sandbox: { throughputPerSecond: options.ratePerSecond, log: () => undefined },
      startWorkers: false,
      seedDemo: false,
    });
    const counter = new RequestCounter();
    const sources: Array<ReturnType<typeof startSqsEventSource>> = [];
    try {
      const services = getServices();
      counter.attachDynamoDb(services.clients.dynamoDbBase);
      counter.attachSqs(services.clients.sqs);
      const sandbox = runtime.sandbox!;
      const tenant = await createBenchTenant(services, sandbox, 150, options.ratePerSecond);
      sandbox.configure({ throughputPerSecond: options.ratePerSecond, throughputByPhoneNumberId: { [tenant.phoneNumberId]: options.ratePerSecond } });
      await services.metaApp.configure({ appSecret: APP_SECRET, verifyToken: 'bench-cost-verify' });
      const postStatuses = (statusesPerPost: number) =>
        sandbox.webhooks.configure({
          url: runtime.webhookUrl,
          appSecret: APP_SECRET,
          enabled: true,
          // The sandbox's default delays (sent 200 ms, delivered 1 s, read 3 s after the send), every message read.
          deliveredRate: 1,
          readRate: 1,
          batch: statusesPerPost > 1,
          batchMaxStatuses: statusesPerPost,
          batchWindowMs: 50,
        });
      const key = await issueKey(services, tenant.organizationId);

      const scoped =
        (scope: string, handler: SqsBatchHandler): SqsBatchHandler =>
        (event: SQSEvent, context: Context) =>
          counter.inScope(scope, () => handler(event, context));
      const chunkInvocations = { count: 0, totalMs: 0 };
      const eventInvocations = { count: 0, totalMs: 0, failedRecords: 0 };
      // Built for this runtime: the module's own `handler` was made at first import, with the
      // environment of whichever runtime (section) imported it first.
      const worker = (
        (await import('../functions/chunk-worker/chunk-worker.lambda')) as { createHandler(env: Record<string, string | undefined>): SqsBatchHandler }
      ).createHandler(environmentOf('chunk-worker', process.env));
      const events = (
        (await import('../functions/delivery-events/delivery-events.lambda')) as { createHandler(env: Record<string, string | undefined>): SqsBatchHandler }
      ).createHandler(environmentOf('delivery-events', process.env));
      const arnOf = (url: string) => `arn:aws:sqs:${services.config.region}:000000000000:${url.split('/').pop()}`;
      sources.push(
        startSqsEventSource({
          sqs: runtime.sqs,
          queueUrl: runtime.queueUrls.outbound,
          queueArn: arnOf(runtime.queueUrls.outbound),
          handler: scoped('chunk-worker', worker),
          batchSize: chunkWorker.batchSize,
          maxConcurrency: chunkWorker.maxConcurrency,
          functionTimeoutSeconds: functions['chunk-worker'].timeoutSeconds,
          reportBatchItemFailures: true,
          memoryMb: chunkWorker.memoryMb,
          onBatch: (info) => {
            if (info.size === 0) return;
            chunkInvocations.count += 1;
            chunkInvocations.totalMs += info.durationMs;
          },
        }),
        startSqsEventSource({
          sqs: runtime.sqs,
          queueUrl: runtime.queueUrls.metaEvents,
          queueArn: arnOf(runtime.queueUrls.metaEvents),
          handler: scoped('delivery-events', events),
          batchSize: deliveryEvents.batchSize,
          maxConcurrency: 1,
          functionTimeoutSeconds: functions['delivery-events'].timeoutSeconds,
          reportBatchItemFailures: true,
          memoryMb: deliveryEvents.memoryMb,
          waitTimeSeconds: 0,
          onBatch: (info) => {
            if (info.size === 0) return;
            eventInvocations.count += 1;
            eventInvocations.totalMs += info.durationMs;
            eventInvocations.failedRecords += info.failed;
          },
        }),
      );
      if (options.trackKeyWrites) counter.trackKeyWrites();
      const body = JSON.stringify(broadcastBody({ count: options.recipients, seed: 7, from: tenant.phoneNumber, name: 'cost bench' }));
      const runs: BroadcastCostRun[] = [];
      for (const [position, { statusesPerPost }] of options.phases.entries()) {
        postStatuses(statusesPerPost);
        Object.assign(chunkInvocations, { count: 0, totalMs: 0 });
        Object.assign(eventInvocations, { count: 0, totalMs: 0, failedRecords: 0 });
        // The sandbox keeps its last 20,000 POSTs: the phase's are those with a later post id.
        const lastPostBefore = sandbox.webhooks.deliveries().reduce((last, delivery) => Math.max(last, delivery.postId), 0);
        const sendsBefore = sandbox.acceptedMessages().length;
        counter.reset();

        const started = performance.now();
        const acceptStarted = performance.now();
        const response = await counter.inScope('gateway', () =>
          fetch(`${runtime.baseUrl}${BROADCAST_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body }),
        );
        const accepted = { status: response.status, text: await response.text(), ms: performance.now() - acceptStarted };
        const jobId = response.headers.get('x-broadcast-job-id');
        if (!jobId) throw new Error(`broadcast refused: ${accepted.status} ${accepted.text.slice(0, 300)}`);

        const deadline = Date.now() + options.timeLimitSeconds * 1000;
        let summary: Record<string, number> = {};
        // Through the use case (GET /status allows 30 a minute); its reads are filed under `poll`
        // and left out of the estimate.
        while (Date.now() < deadline) {
          summary =
            ((
              await counter.inScope('poll', () =>
                getJobStatus(services.broadcast.broadcasts, { organizationId: tenant.organizationId }, jobId).catch(() => undefined),
              )
            )?.summary as unknown as Record<string, number>) ?? summary;
          if ((summary.read ?? 0) >= options.recipients) break;
          await sleep(500);
        }
        const completed = (summary.read ?? 0) >= options.recipients;
        await sandbox.webhooks.drain(10_000);
        await Promise.all(sources.map((source) => Promise.race([source.idle(), sleep(20_000)])));
        const wallSeconds = (performance.now() - started) / 1000;
        const requestCounts = counter.snapshot();
        const okPosts = sandbox.webhooks.deliveries().filter((delivery) => delivery.ok && delivery.postId > lastPostBefore);
        const statuses = okPosts.reduce((sum, delivery) => sum + delivery.events.length, 0);
        const sendTimes = sandbox
          .acceptedMessages()
          .slice(sendsBefore)
          .filter((message) => message.phoneNumberId === tenant.phoneNumberId)
          .map((message) => Date.parse(message.receivedAt));
        const run: BroadcastCostRun = {
          recipients: options.recipients,
          ratePerSecond: options.ratePerSecond,
          statusesPerPost,
          audience: position === 0 ? 'new' : 'known',
          completed,
          summary,
          webhookPosts: requestCounts.sqs.SendMessage?.calls ?? okPosts.length,
          statuses,
          acceptMs: accepted.ms,
          chunkInvocations: { ...chunkInvocations },
          eventInvocations: { ...eventInvocations },
          requestCounts,
          wallSeconds,
          hotKeys: options.trackKeyWrites ? counter.hotKeys(options.hotKeyCount ?? 60) : undefined,
          sends: { messages: sendTimes.length, spanSeconds: sendTimes.length > 1 ? (Math.max(...sendTimes) - Math.min(...sendTimes)) / 1000 : Number.NaN },
        };
        options.log(
          `  ${run.audience} audience: ${options.recipients} recipients at ${options.ratePerSecond}/s, up to ${statusesPerPost} statuses per POST: ${completed ? 'all READ' : `NOT all read (${JSON.stringify(summary)})`} in ${wallSeconds.toFixed(1)} s; ` +
            `${run.webhookPosts} webhook POSTs (${statuses} statuses), ${eventInvocations.count} delivery-events invocations (${eventInvocations.failedRecords} records retried)`,
        );
        runs.push(run);
      }
      return runs;
    } finally {
      await Promise.race([Promise.all(sources.map((source) => source.stop())), sleep(20_000)]);
      await runtime.stop();
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  });
}
