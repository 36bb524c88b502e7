/**
 * Delivery-event processor throughput: a job's ledger is filled (one chunk of recipients per
 * 1,000, every recipient SENT with a message id), then N × 3 status events (sent, delivered, read,
 * in webhook bodies of `eventsPerBody` statuses, as the webhook endpoint stores them) are queued on
 * metaEvents before the delivery-events handler starts consuming from the same SQS event source
 * the local runtime uses. Measured: from the event source's start until every recipient's tally
 * reads READ; applied/s = events / span. It then checks that the tally is exact (every recipient
 * counted once, as READ).
 *
 * The goal (ISSUE-11): at least 3x the drain rate, since Meta sends about three events per message.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse } from 'aws-lambda';
import { getServices } from '../functions/composition';
import { deliveryEvents, environmentOf, functions, type FunctionName } from '../runtime-contract/resource-definitions';
import { startLocalRuntime } from '../local/local-runtime';
import { startSqsEventSource, type SqsBatchHandler } from '../local/sqs-event-source';
import type { BroadcastJob } from '../shared/broadcast/broadcast-job';
import { callbackDataOf } from '../shared/delivery/callback-data';
import { countTallyCode, emptyDeliveryCounts } from '../shared/delivery/recipient-status';
import { sleep } from './lib/stats';
import { withRestoredEnvironment } from './lib/workload';

export interface DeliveryEventsBenchResult {
  recipients: number;
  events: number;
  bodies: number;
  concurrency: number;
  spanSeconds: number;
  appliedPerSecond: number;
  exact: boolean;
}

const ORG = 'org_bench_events';
const PHONE_NUMBER_ID = 'pn_bench_events';
const WABA = 'waba_bench_events';

export async function benchDeliveryEvents(options: {
  recipients: number;
  eventsPerBody: number;
  concurrency: number;
  timeLimitSeconds: number;
  log: (line: string) => void;
}): Promise<DeliveryEventsBenchResult> {
  return withRestoredEnvironment(async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-events-'));
    const runtime = await startLocalRuntime({ port: 0, persist: false, dataDirectory, startWorkers: false, seedDemo: false });
    let source: ReturnType<typeof startSqsEventSource> | undefined;
    try {
      const services = getServices();
      const now = new Date();
      await services.tenancy.repository.claimIdentifier({
        kind: 'phone-number-id',
        value: PHONE_NUMBER_ID,
        organizationId: ORG,
        phoneNumber: { organizationId: ORG, wabaId: WABA, phoneNumberId: PHONE_NUMBER_ID, digits: '15550009999' } as never,
        claimedAt: now.toISOString(),
      });
      const jobId = `pub_bench_events_${Date.now()}`;
      const chunks = Math.ceil(options.recipients / 1000);
      const chunkSizes = Array.from({ length: chunks }, (_, chunk) => Math.min(1000, options.recipients - chunk * 1000));
      const job: BroadcastJob = {
        kind: 'template',
        jobId,
        organizationId: ORG,
        broadcastName: 'bench events',
        exposed: true,
        wabaId: WABA,
        phoneNumberId: PHONE_NUMBER_ID,
        fromPhoneNumber: '15550009999',
        template: { name: 'bench_update', language: 'en_US', category: 'UTILITY', id: 'tpl_bench' },
        totalRecipients: options.recipients,
        totalChunks: chunks,
        chunkSize: 1000,
        createdAt: now.toISOString(),
      };
      const broadcasts = services.broadcast.broadcasts;
      await broadcasts.createJob(job, chunkSizes);
      const messageId = (index: number) => `wamid.bench.${index}`;
      for (let chunk = 0; chunk < chunks; chunk += 1) {
        const indexes = Array.from({ length: chunkSizes[chunk]! }, (_, offset) => chunk * 1000 + offset);
        for (let start = 0; start < indexes.length; start += 25) {
          const part = indexes.slice(start, start + 25);
          await broadcasts.recordOutcomes(
            jobId,
            chunk,
            part.map((index) => ({
              index,
              to: `1555${String(index).padStart(7, '0')}`,
              status: 'SENT' as const,
              messageId: messageId(index),
              attempts: 1,
              updatedAt: now.toISOString(),
            })),
          );
        }
      }

      const seconds = Math.floor(now.getTime() / 1000);
      const statuses = ['sent', 'delivered', 'read'].flatMap((status, stage) =>
        Array.from({ length: options.recipients }, (_, index) => ({
          id: messageId(index),
          status,
          timestamp: String(seconds + stage),
          recipient_id: `1555${String(index).padStart(7, '0')}`,
          biz_opaque_callback_data: callbackDataOf({ kind: 'ledger', jobId, chunkIndex: Math.floor(index / 1000), index }),
        })),
      );
      const bodies: string[] = [];
      for (let start = 0; start < statuses.length; start += options.eventsPerBody) {
        const body = {
          object: 'whatsapp_business_account',
          entry: [
            {
              id: WABA,
              changes: [
                {
                  field: 'messages',
                  value: {
                    messaging_product: 'whatsapp',
                    metadata: { phone_number_id: PHONE_NUMBER_ID, display_phone_number: '15550009999' },
                    statuses: statuses.slice(start, start + options.eventsPerBody),
                  },
                },
              ],
            },
          ],
        };
        bodies.push(JSON.stringify({ version: 1, receivedAt: new Date().toISOString(), body: JSON.stringify(body) }));
      }
      const queueUrl = runtime.queueUrls.metaEvents;
      for (let start = 0; start < bodies.length; start += 10) {
        await runtime.sqs.send(
          new SendMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: bodies.slice(start, start + 10).map((body, offset) => ({ Id: String(offset), MessageBody: body })),
          }),
        );
      }

      const name: FunctionName = 'delivery-events';
      const module = (await import('../functions/delivery-events/delivery-events.lambda')) as { createHandler(env: Record<string, string>): SqsBatchHandler };
      const handler = module.createHandler(environmentOf(name, process.env));
      let failedRecords = 0;
      const started = performance.now();
      source = startSqsEventSource({
        sqs: runtime.sqs,
        queueUrl,
        queueArn: `arn:aws:sqs:us-east-1:000000000000:${queueUrl.split('/').pop()}`,
        handler: async (event, context) => {
          const response = (await handler(event, context)) as SQSBatchResponse | undefined;
          failedRecords += response?.batchItemFailures.length ?? 0;
          return response;
        },
        batchSize: deliveryEvents.batchSize,
        maxConcurrency: options.concurrency,
        functionTimeoutSeconds: functions[name].timeoutSeconds,
        reportBatchItemFailures: true,
        waitTimeSeconds: 0,
      });

      // The summary's reading: per recipient the higher of the outcome code and its facts' (in the tally items' sets).
      const tallyCounts = async () => {
        const counts = emptyDeliveryCounts();
        for (const [, code] of (await broadcasts.getJobProgress(jobId)).tally) countTallyCode(counts, code, new Date());
        return counts;
      };
      const deadline = Date.now() + options.timeLimitSeconds * 1000;
      // The emulator is busy with the processor: a poll that times out is simply tried again.
      const poll = () => tallyCounts().catch(() => emptyDeliveryCounts());
      let counts = await poll();
      while (counts.read < options.recipients && Date.now() < deadline) {
        await sleep(250);
        counts = await poll();
      }
      const spanSeconds = (performance.now() - started) / 1000;
      await source.idle();
      const exact = counts.read === options.recipients && counts.accounted === options.recipients && counts.failed === 0;
      const result: DeliveryEventsBenchResult = {
        recipients: options.recipients,
        events: statuses.length,
        bodies: bodies.length,
        concurrency: options.concurrency,
        spanSeconds,
        appliedPerSecond: statuses.length / spanSeconds,
        exact,
      };
      options.log(
        `${result.events} events in ${result.bodies} bodies applied in ${spanSeconds.toFixed(1)} s: ${result.appliedPerSecond.toFixed(0)} events/s ` +
          `(${options.concurrency} batches at a time; ${failedRecords} records retried; tally ${exact ? 'exact' : 'NOT exact'})`,
      );
      return result;
    } finally {
      await source?.stop();
      await runtime.stop();
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  });
}
