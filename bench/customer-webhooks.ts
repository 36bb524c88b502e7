/**
 * Customer webhooks: events delivered per second to a local receiver. The local runtime in this
 * process (dynalite, fauxqs, the customer-events dispatcher fed by the local SQS event source),
 * the publisher (event log + one queued delivery per event), one organization with one endpoint
 * (an in-memory registry) and `npm run webhook-receiver`'s server verifying every signature.
 *
 * Two phases: publish every event with the dispatcher stopped (the queue fills: the publish rate),
 * then start the dispatcher's SQS event source as the local runtime does and time the drain: events
 * delivered per second, and each event's delay from the dispatcher's start to its verified receipt
 * (p50/p99). Loopback only; bounded by `maxDurationMs`.
 * Alone: `npx tsx bench/customer-webhooks.ts [events]`.
 */
import { webhookSubscribersSection } from '../functions/composition/webhook-subscribers.section';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile } from './lib/stats';

export interface CustomerWebhooksBenchResult {
  events: number;
  delivered: number;
  deliveredPerSecond: number;
  publishedPerSecond: number;
  /** From the dispatcher's start to the verified receipt, while draining the whole backlog. */
  delayMs: { p50: number; p99: number };
  badSignatures: number;
  truncated: boolean;
}

export async function benchCustomerWebhooks(
  options: { events?: number; concurrency?: number; maxDurationMs?: number } = {},
): Promise<CustomerWebhooksBenchResult> {
  const events = options.events ?? 2_000;
  const concurrency = options.concurrency ?? 20;
  const maxDurationMs = options.maxDurationMs ?? 120_000;
  const { startLocalRuntime } = await import('../local/local-runtime');
  const { startWebhookReceiver } = await import('../scripts/webhook-receiver');
  const { FakeWebhookRegistry } = await import('../test/support/fake-webhook-registry');
  const { createCompositionContext } = await import('../functions/composition/composition-context');
  const { customerEventPublisherSection } = await import('../functions/composition/customer-events.section');
  const { dynamoDbClients } = await import('../functions/composition/dynamodb-clients');
  const { parseAppConfig } = await import('../shared/config/app-config');
  const { newCustomerEvent } = await import('../shared/customer-events/event-envelope');

  const registry = new FakeWebhookRegistry();
  const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-hooks-'));
  const publishedAt = new Map<string, number>();
  const delays: number[] = [];
  let badSignatures = 0;
  let lastReceiptAt = 0;
  let allDelivered: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allDelivered = resolve));
  const receiver = await startWebhookReceiver({
    secret: 'whsec_bench',
    port: 0,
    print: (line) => {
      const id = line.split(' ')[2] ?? '';
      const started = publishedAt.get(id);
      if (started === undefined) return;
      publishedAt.delete(id);
      lastReceiptAt = performance.now();
      delays.push(lastReceiptAt - started);
      if (delays.length === events) allDelivered();
    },
    warn: () => {
      badSignatures += 1;
    },
  });
  const { startSqsEventSource } = await import('../local/sqs-event-source');
  const { customerEventsDispatcher, environmentOf, functions } = await import('../runtime-contract/resource-definitions');
  const runtime = await startLocalRuntime({ port: 0, dataDirectory, persist: false, seedDemo: false, startWorkers: false });
  // After the runtime set the environment: the module builds its default handler from it on import, as on Lambda.
  const { createHandler } = await import('../functions/customer-events/customer-events.lambda');
  let dispatcher: { stop(): Promise<void> } | undefined;
  try {
    registry.add('org_bench', 'whk_bench', receiver.url, 'whsec_bench', ['message.status']);
    const context = createCompositionContext(parseAppConfig(process.env), { webhookEndpointRegistry: registry });
    const publisher = customerEventPublisherSection(context, dynamoDbClients(context), webhookSubscribersSection(context, dynamoDbClients(context)))();

    const started = performance.now();
    let next = 0;
    const publishing = Array.from({ length: concurrency }, async () => {
      while (next < events && performance.now() - started < maxDurationMs) {
        const index = next++;
        const event = newCustomerEvent({ type: 'message.status', createdAt: new Date(), sourceKey: `bench:${index}`, data: { index, status: 'delivered' } });
        publishedAt.set(event.id, performance.now());
        await publisher.publish('org_bench', event);
      }
    });
    await Promise.all(publishing);
    const publishedMs = performance.now() - started;

    // The same source and settings the local runtime gives the customer-events function.
    const queueUrl = runtime.queueUrls.customerEvents;
    const drainStarted = performance.now();
    for (const id of publishedAt.keys()) publishedAt.set(id, drainStarted);
    dispatcher = startSqsEventSource({
      sqs: runtime.sqs,
      queueUrl,
      queueArn: `arn:aws:sqs:us-east-1:000000000000:${queueUrl.split('/').pop()}`,
      handler: createHandler(environmentOf('customer-events', process.env), { webhookEndpointRegistry: registry }),
      batchSize: customerEventsDispatcher.batchSize,
      maxConcurrency: customerEventsDispatcher.maxConcurrency,
      functionTimeoutSeconds: functions['customer-events'].timeoutSeconds,
      reportBatchItemFailures: true,
    });
    const timedOut = await Promise.race([done.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), maxDurationMs).unref())]);
    const elapsedMs = (lastReceiptAt || performance.now()) - drainStarted;
    return {
      events,
      delivered: delays.length,
      deliveredPerSecond: delays.length / (elapsedMs / 1000),
      publishedPerSecond: Math.min(next, events) / (publishedMs / 1000),
      delayMs: { p50: percentile(delays, 50), p99: percentile(delays, 99) },
      badSignatures,
      truncated: timedOut,
    };
  } finally {
    await dispatcher?.stop();
    await runtime.stop();
    await receiver.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

if (require.main === module) {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  void benchCustomerWebhooks({ events: Number(process.argv[2] ?? 2_000) }).then((result) => {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  });
}
