/**
 * Fault injection on the accept path of template broadcasts (issue 23 items 1 and 2), with the real
 * chunk worker on in-memory ports and virtual time:
 *
 * - queueing that fails part-way while a worker already sends the first batch: the failed accept
 *   keeps the job and its ledger, and the retry with the same Idempotency-Key sends nobody twice;
 * - an Idempotency-Key whose record expired: a job accepted longer ago than the window is named
 *   (422) instead of the new request being answered "queued" and sent to nobody.
 */
import type { OutboundMessage, TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { processOutboundChunk } from '../../../shared/broadcast/chunk-worker/process-outbound-chunk';
import { IdempotencyKeyExpiredError, IdempotencyKeyReusedError, OutboundQueueUnavailableError } from '../../../shared/broadcast/errors';
import { getJobStatus } from '../../../shared/broadcast/get-job-status';
import type { OutboundQueue } from '../../../shared/broadcast/ports';
import { sendTemplateBroadcast, type SendTemplateBroadcastDependencies } from '../../../shared/broadcast/send-template-broadcast';
import { TemplateCatalog } from '../../../shared/broadcast/template-catalog';
import { InboxSuppressionList } from '../../../shared/module-bridges/inbox-opt-outs';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { sequentialIdGenerator } from '../../../shared/ports/id-generator';
import {
  FixedMarketingMessagesOnboarding,
  InMemoryUploadedMedia,
  FixedMessagingTiers,
  InMemoryIdempotencyGuard,
  InMemoryPortfolioReach,
  InMemorySenderDirectory,
  ORG,
  SENDER,
  broadcastRequest,
  template,
  type VirtualTime,
} from '../../support/broadcast-fakes';
import { InMemoryOptOutRepository } from '../../support/in-memory-opt-out-repository';
import { setup as workerSetup } from '../chunk-worker/chunk-worker-kit';

const HOUR_MS = 3_600_000;

/**
 * A queue whose first batch (here: the first chunk message) a worker takes at once, and whose
 * second batch fails after 300 ms while `failing`; otherwise every message goes to a worker. What a
 * worker queues again (a chunk waiting for its account's turn) comes back to a worker after its delay.
 */
class FirstBatchThenFailingQueue implements OutboundQueue {
  failing = true;
  readonly deliveries: Array<Promise<unknown>> = [];

  /** The worker's own queue: a re-queued message is delivered again after its delay. */
  readonly requeue: OutboundQueue = {
    enqueue: async (messages, options) => {
      for (const message of messages) this.deliveries.push(this.time.sleep((options?.delaySeconds ?? 0) * 1000).then(() => this.worker(message)));
    },
    deferRedelivery: async () => undefined,
  };

  /** Every delivery done, including those queued again while waiting. */
  async settled(): Promise<void> {
    for (let awaited = 0; awaited < this.deliveries.length; ) {
      const pending = this.deliveries.slice(awaited);
      awaited += pending.length;
      await Promise.all(pending);
    }
  }

  constructor(
    private readonly time: VirtualTime,
    private readonly worker: (message: OutboundMessage) => Promise<unknown>,
  ) {}

  async enqueue(messages: readonly OutboundMessage[]): Promise<void> {
    const [first, ...rest] = messages;
    if (first) this.deliveries.push(this.worker(first));
    if (this.failing && rest.length > 0) {
      await this.time.sleep(300);
      throw new StoreUnavailableError('SQS: SendMessageBatch timed out');
    }
    for (const message of rest) this.deliveries.push(this.worker(message));
  }

  async deferRedelivery(): Promise<void> {}
}

function faultKit(options: { rate?: number } = {}) {
  const kit = workerSetup({ rate: options.rate ?? 20 });
  kit.setDeadline(Number.MAX_SAFE_INTEGER);
  kit.upstream.templates.set(SENDER.wabaId, [template()]);
  const invocation = { remainingTimeMs: () => 600_000 };
  const queue: FirstBatchThenFailingQueue = new FirstBatchThenFailingQueue(kit.time, (message) =>
    processOutboundChunk({ ...kit.dependencies, queue: queue.requeue }, message as TemplateChunkMessage, invocation),
  );
  const idempotency = new InMemoryIdempotencyGuard();
  const messagingTiers = new FixedMessagingTiers();
  const portfolioReach = new InMemoryPortfolioReach();
  const dependencies: SendTemplateBroadcastDependencies = {
    ids: sequentialIdGenerator(),
    senders: new InMemorySenderDirectory([SENDER]),
    templates: new TemplateCatalog(kit.upstream, kit.time),
    broadcasts: kit.broadcasts,
    queue,
    idempotency,
    optOuts: new InboxSuppressionList(new InMemoryOptOutRepository()),
    clock: kit.time,
    media: new InMemoryUploadedMedia(),
    messagingTiers,
    portfolioReach,
    marketingMessages: new FixedMarketingMessagesOnboarding(),
  };
  const send = (request = broadcastRequest(1_001), key = 'campaign-42') =>
    sendTemplateBroadcast(dependencies, { organizationId: ORG }, request, { idempotencyKey: key, inProgressTimeoutMs: 20_000 });
  /** Sends per recipient number, counted from the Cloud API fake. */
  const sendsPerRecipient = () => {
    const counts = new Map<string, number>();
    for (const { to } of kit.upstream.sends) counts.set(to, (counts.get(to) ?? 0) + 1);
    return counts;
  };
  return { ...kit, queue, idempotency, messagingTiers, portfolioReach, dependencies, send, sendsPerRecipient };
}

describe('queueing fails part-way while a worker sends the first batch (item 2)', () => {
  it('the failed accept keeps the job and its ledger; the retry with the same key sends every recipient exactly once', async () => {
    const kit = faultKit();
    await kit.time.run(async () => {
      await expect(kit.send()).rejects.toThrow(OutboundQueueUnavailableError);
      // The worker of the first batch is still sending: some recipients are out already.
      const sentBeforeRetry = kit.upstream.sends.length;
      expect(sentBeforeRetry).toBeGreaterThan(0);
      expect(sentBeforeRetry).toBeLessThan(1_000);
      const [jobId] = [...kit.broadcasts.jobs.keys()];
      expect(kit.broadcasts.jobs.get(jobId!)).toMatchObject({ acceptFailedAt: expect.any(String) });
      expect(kit.broadcasts.jobs.get(jobId!)?.cancelledAt).toBeUndefined();
      expect(kit.broadcasts.callsOf('discardJob')).toBe(0);
      expect(kit.idempotency.records.size).toBe(0);

      kit.queue.failing = false;
      const accepted = await kit.send();
      expect(accepted).toMatchObject({ kind: 'job', jobId, totalRecipients: 1_001 });
      await kit.queue.settled();
    });

    const counts = kit.sendsPerRecipient();
    expect(counts.size).toBe(1_001);
    expect([...counts].filter(([, count]) => count !== 1)).toEqual([]);
    const [jobId] = [...kit.broadcasts.jobs.keys()];
    expect(kit.broadcasts.jobs.get(jobId!)?.acceptFailedAt).toBeUndefined();
    const status = await getJobStatus(kit.broadcasts, { organizationId: ORG }, jobId!, { now: kit.time.now(), unconfirmedAfterMs: HOUR_MS });
    expect(status).toMatchObject({ status: 'COMPLETED', summary: { sent: 1_001, pending: 0 } });
    expect(status).not.toHaveProperty('acceptFailure');
  });

  it('a failed accept never retried says so in its status: acceptFailure with the end of the key window, its unqueued recipients pending', async () => {
    const kit = faultKit({ rate: 1_000 });
    await kit.time.run(async () => {
      await expect(kit.send()).rejects.toThrow(OutboundQueueUnavailableError);
      await kit.queue.settled();
    });
    const [jobId] = [...kit.broadcasts.jobs.keys()];
    const status = await getJobStatus(kit.broadcasts, { organizationId: ORG }, jobId!, { now: kit.time.now(), unconfirmedAfterMs: HOUR_MS });
    expect(status).toMatchObject({
      status: 'PROCESSING',
      summary: { sent: 1_000, pending: 1, chunksDone: 1, chunksTotal: 2 },
      acceptFailure: { failedAt: expect.any(String), retryUntil: '2026-03-03T09:00:00.000Z' },
    });
  });
});

describe('an Idempotency-Key used again after its record expired (item 1)', () => {
  async function sentOnce(kit: ReturnType<typeof faultKit>, request = broadcastRequest(1)) {
    kit.queue.failing = false;
    await kit.time.run(async () => {
      await kit.send(request);
      await kit.queue.settled();
    });
  }
  const expire = (kit: ReturnType<typeof faultKit>, hours: number) => {
    // What TTL (or Powertools' expiry check) does to the key's record; the job lives on (90 days).
    kit.idempotency.records.clear();
    kit.time.advanceBy(hours * HOUR_MS);
  };

  it('is refused with the earlier job and its date, the new recipient is not sent, and the earlier job is left as it was', async () => {
    const kit = faultKit();
    await sentOnce(kit);
    const [jobId] = [...kit.broadcasts.jobs.keys()];
    const chunksBefore = [...kit.broadcasts.chunks.keys()];
    expire(kit, 49);

    const another = broadcastRequest(1, { data: [{ countryCode: '91', toPhoneNumber: '9811111111', templateParams: ['Ann', 'A-1'] }] });
    const refusal = kit.time.run(() => kit.send(another));
    await expect(refusal).rejects.toThrow(IdempotencyKeyExpiredError);
    await expect(refusal).rejects.toMatchObject({
      earlierJobId: jobId,
      earlierAcceptedAt: '2026-03-01T09:00:00.000Z',
      details: { earlierJob: { jobId, acceptedAt: '2026-03-01T09:00:00.000Z' } },
    });
    await expect(refusal).rejects.toThrow(/already used for job pub_\S+, accepted at 2026-03-01T09:00:00.000Z; a key can be retried for 48 hours only/);
    expect(kit.upstream.sendsTo('919811111111')).toHaveLength(0);
    expect(kit.upstream.sends).toHaveLength(1);
    expect([...kit.broadcasts.chunks.keys()]).toEqual(chunksBefore);
    expect(kit.broadcasts.jobs.get(jobId!)).toMatchObject({ totalRecipients: 1 });
    // The same file again (same body) is refused the same way: nothing is sent twice silently either.
    await expect(kit.time.run(() => kit.send(broadcastRequest(1)))).rejects.toThrow(IdempotencyKeyExpiredError);
    expect(kit.idempotency.records.size).toBe(0);
  });

  it('gives the refused request its messaging-limit reservation back', async () => {
    const kit = faultKit();
    kit.messagingTiers.tiers.set(SENDER.phoneNumberId, 'TIER_250');
    await sentOnce(kit);
    expire(kit, 49);
    const bucketsBefore = JSON.stringify([...kit.portfolioReach.buckets]);
    const others = ['9811111111', '9822222222', '9833333333'].map((toPhoneNumber) => ({ countryCode: '91', toPhoneNumber }));
    await expect(kit.time.run(() => kit.send(broadcastRequest(3, { data: others, globalTemplateParams: ['Ann', 'A-1'] })))).rejects.toThrow(
      IdempotencyKeyExpiredError,
    );
    // Counted in this hour (the reservation comes before the job is looked at), then taken out again.
    expect(kit.portfolioReach.writes).toBe(3);
    const thisHour = kit.time.now().toISOString().slice(0, 13);
    const [, bucket] = [...kit.portfolioReach.buckets].find(([key]) => key.endsWith(thisHour))!;
    expect(bucket.sketch).toEqual(Uint8Array.of(1));
    expect(JSON.stringify([...kit.portfolioReach.buckets].filter(([key]) => !key.endsWith(thisHour)))).toBe(bucketsBefore);
  });

  it('within the window a job without its key record is a failed accept retried: it goes on, and a different body is refused as reused', async () => {
    const kit = faultKit();
    await kit.time.run(async () => {
      await expect(kit.send()).rejects.toThrow(OutboundQueueUnavailableError);
      await kit.queue.settled();
    });
    kit.time.advanceBy(47 * HOUR_MS);
    kit.queue.failing = false;
    await expect(kit.time.run(() => kit.send(broadcastRequest(1_001, { broadcastName: 'another name' })))).rejects.toThrow(IdempotencyKeyReusedError);
    await kit.time.run(async () => {
      await kit.send();
      await kit.queue.settled();
    });
    const counts = kit.sendsPerRecipient();
    expect(counts.size).toBe(1_001);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
  });
});
