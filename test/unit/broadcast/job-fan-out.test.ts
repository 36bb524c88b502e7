/**
 * The job factory and fan-out service shared by the three accept paths: jobs by kind (no fake
 * fields), chunking by request index, refused recipients in the ledger, and what a failed accept
 * leaves: nothing when it failed before queueing (its messaging-limit reservation given back too);
 * once queueing started, the job and its ledger stay, marked `acceptFailedAt` (cancelled when it has
 * no Idempotency-Key), and a keyed retry lands on the same job. Fault injection with a running
 * worker: accept-fault-injection.test.ts.
 */
import type { ChunkRecipient } from '../../../shared/broadcast/chunk-message';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { OutboundQueueUnavailableError } from '../../../shared/broadcast/errors';
import { newJob, newJobId, recordAndFanOut } from '../../../shared/broadcast/job-fan-out';
import { sendFreeformMessage } from '../../../shared/broadcast/send-freeform-message';
import { sendTemplateBroadcast } from '../../../shared/broadcast/send-template-broadcast';
import { TemplateCatalog } from '../../../shared/broadcast/template-catalog';
import { fixedClock } from '../../../shared/ports/clock';
import { randomIdGenerator } from '../../../shared/ports/id-generator';
import {
  InMemoryUploadedMedia,
  InMemoryBroadcastRepository,
  InMemoryIdempotencyGuard,
  InMemorySenderDirectory,
  ORG,
  RecordingOutboundQueue,
  SENDER,
  ScriptedCloudApi,
  broadcastRequest,
  template,
  RecordedServiceWindow,
  unlimitedMessaging,
  InMemoryPortfolioReach,
} from '../../support/broadcast-fakes';
import { InboxSuppressionList } from '../../../shared/module-bridges/inbox-opt-outs';
import { InMemoryOptOutRepository } from '../../support/in-memory-opt-out-repository';

const clock = fixedClock('2026-03-01T09:00:00.000Z');
const templateRef = { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl_1' };

function setup() {
  const broadcasts = new InMemoryBroadcastRepository();
  const queue = new RecordingOutboundQueue();
  return { broadcasts, queue, dependencies: { broadcasts, queue, clock, ids: randomIdGenerator } };
}

const expectNothingStored = (broadcasts: InMemoryBroadcastRepository) => {
  expect(broadcasts.jobs.size).toBe(0);
  expect(broadcasts.chunks.size).toBe(0);
  expect(broadcasts.ledger.size).toBe(0);
  expect(broadcasts.listedRecipients.size).toBe(0);
};

describe('newJob', () => {
  it('builds the common fields from the sender and the count, and keeps only the fields of its kind', () => {
    const common = { jobId: 'msg_1', organizationId: ORG, sender: SENDER, totalRecipients: 1, exposed: false, now: clock.now() };
    expect(newJob({ kind: 'freeform', messageType: 'text' }, common)).toEqual({
      kind: 'freeform',
      messageType: 'text',
      jobId: 'msg_1',
      organizationId: ORG,
      exposed: false,
      wabaId: SENDER.wabaId,
      phoneNumberId: SENDER.phoneNumberId,
      fromPhoneNumber: SENDER.phoneNumber,
      totalRecipients: 1,
      totalChunks: 1,
      chunkSize: 1000,
      createdAt: '2026-03-01T09:00:00.000Z',
    });
    expect(newJob({ kind: 'template', broadcastName: 'b', template: templateRef }, { ...common, totalRecipients: 2_001 })).toMatchObject({ totalChunks: 3 });
  });

  it('gives job ids a prefix per kind; a seed gives the same id every time', () => {
    expect(newJobId(randomIdGenerator, 'template')).toMatch(/^pub_[\w-]{22}$/);
    expect(newJobId(randomIdGenerator, 'freeform')).toMatch(/^msg_[\w-]{22}$/);
    expect(newJobId(randomIdGenerator, 'earlier')).toMatch(/^leg_[\w-]{22}$/);
    expect(newJobId(randomIdGenerator, 'template', 'org\nkey')).toBe(newJobId(randomIdGenerator, 'template', 'org\nkey'));
    expect(newJobId(randomIdGenerator, 'template')).not.toBe(newJobId(randomIdGenerator, 'template'));
  });
});

describe('recordAndFanOut', () => {
  const listed = (count: number) =>
    Array.from({ length: count }, (_, index) => ({ index, countryCode: '91', toPhoneNumber: `98${String(index).padStart(8, '0')}` }));
  const templateJob = (totalRecipients: number) =>
    newJob(
      { kind: 'earlier', mode: 'bulk', broadcastName: 'spring', template: templateRef },
      { jobId: 'leg_1', organizationId: ORG, sender: SENDER, totalRecipients, exposed: false, now: clock.now() },
    );

  it('chunks recipients by their index in the request and records refused ones in the ledger', async () => {
    const kit = setup();
    const job = templateJob(1_500);
    const recipients = Array.from({ length: 1_499 }, (_, position): ChunkRecipient => {
      const index = position + 1;
      return { index, to: `9198${String(index).padStart(8, '0')}`, parameters: ['a'] };
    });
    const refused = [
      { index: 0, to: '91', status: 'FAILED' as const, failureReasonCode: 'INVALID_PHONE_NUMBER', attempts: 0, updatedAt: clock.now().toISOString() },
    ];
    await recordAndFanOut(kit.dependencies, { job, recipients, refused, listed: listed(1_500) });
    expect(kit.queue.messages.map((message) => [message.chunkIndex, message.recipients.length])).toEqual([
      [0, 999],
      [1, 500],
    ]);
    expect(kit.broadcasts.chunk('leg_1', 0)).toMatchObject({ recipientCount: 1000, failed: 1, failuresByReason: { INVALID_PHONE_NUMBER: 1 } });
    expect(kit.broadcasts.chunk('leg_1', 1)).toMatchObject({ recipientCount: 500 });
    expect(kit.broadcasts.entry('leg_1', 0, 0)).toMatchObject({ status: 'FAILED' });
  });

  it('settles the chunks at once when every recipient was refused', async () => {
    const kit = setup();
    const refused = [{ index: 0, to: '1', status: 'FAILED' as const, failureReasonCode: '131014', attempts: 0, updatedAt: clock.now().toISOString() }];
    await recordAndFanOut(kit.dependencies, { job: templateJob(1), recipients: [], refused, listed: listed(1) });
    expect(kit.queue.batches).toHaveLength(0);
    expect(kit.broadcasts.chunk('leg_1', 0)?.doneAt).toBeDefined();
  });

  const expectKeptAsFailed = (broadcasts: InMemoryBroadcastRepository, jobId: string) => {
    expect(broadcasts.jobs.get(jobId)).toMatchObject({ acceptFailedAt: clock.now().toISOString() });
    expect(broadcasts.callsOf('discardJob')).toBe(0);
  };

  it('keeps the job, its chunks and its refused entries when queueing fails (messages may be out), marks it, cancels it without a key, and says the queue is unavailable', async () => {
    const kit = setup();
    kit.queue.failure = new StoreUnavailableError('SQS is down');
    const refused = [{ index: 1, to: '1', status: 'FAILED' as const, failureReasonCode: '131014', attempts: 0, updatedAt: clock.now().toISOString() }];
    const attempt = recordAndFanOut(kit.dependencies, {
      job: templateJob(2),
      recipients: [{ index: 0, to: '919800000001', parameters: ['a'] }],
      refused,
      listed: listed(2),
    });
    await expect(attempt).rejects.toThrow(OutboundQueueUnavailableError);
    expect(kit.broadcasts.callsOf('createJob')).toBe(1);
    expectKeptAsFailed(kit.broadcasts, 'leg_1');
    // Its retry is another job: this one stops, so what it queued sends nothing more.
    expect(kit.broadcasts.jobs.get('leg_1')?.cancelledAt).toBe(clock.now().toISOString());
    expect(kit.broadcasts.chunks.size).toBe(1);
    expect(kit.broadcasts.entry('leg_1', 0, 1)).toMatchObject({ status: 'FAILED' });
  });

  it('keeps the job just the same when the queue refuses for a reason no retry changes, and passes that refusal on (a 500)', async () => {
    const kit = setup();
    const refusal = new Error('SQS refused 1 outbound messages: InvalidMessageContents');
    kit.queue.failure = refusal;
    await expect(
      recordAndFanOut(kit.dependencies, { job: templateJob(2), recipients: [{ index: 0, to: '919800000001', parameters: ['a'] }], listed: listed(2) }),
    ).rejects.toBe(refusal);
    expectKeptAsFailed(kit.broadcasts, 'leg_1');
  });

  it('discards nothing and gives no reservation back when queueing failed; discards the job and gives the reservation back when a failure came before queueing', async () => {
    const reservation = { businessId: SENDER.businessId, hour: '2026-03-01T09', hashes: [7] };
    const reach = new InMemoryPortfolioReach();
    const seeded = async () => {
      await reach.writeBucket(SENDER.businessId, { hour: '2026-03-01T09', sketch: Uint8Array.of(1, 0, 0, 0, 7), version: 1 }, 0);
      return reach.buckets.get(`${SENDER.businessId}#2026-03-01T09`)!;
    };
    const queueFails = setup();
    await seeded();
    queueFails.queue.failure = new StoreUnavailableError('SQS is down');
    const plan = { job: templateJob(1), recipients: [{ index: 0, to: '919800000001', parameters: ['a'] }], listed: listed(1), reservation };
    await expect(recordAndFanOut({ ...queueFails.dependencies, portfolioReach: reach }, plan)).rejects.toThrow(OutboundQueueUnavailableError);
    expect(reach.buckets.get(`${SENDER.businessId}#2026-03-01T09`)).toMatchObject({ version: 1 });

    const recordFails = setup();
    recordFails.broadcasts.failWhen = (method) => (method === 'reconcileChunk' ? new StoreUnavailableError('DynamoDB throttled') : undefined);
    const refusedOnly = {
      ...plan,
      recipients: [],
      refused: [{ index: 0, to: '1', status: 'FAILED' as const, failureReasonCode: '131014', attempts: 0, updatedAt: clock.now().toISOString() }],
    };
    await expect(recordAndFanOut({ ...recordFails.dependencies, portfolioReach: reach }, refusedOnly)).rejects.toThrow(StoreUnavailableError);
    expectNothingStored(recordFails.broadcasts);
    expect(reach.buckets.get(`${SENDER.businessId}#2026-03-01T09`)).toMatchObject({ version: 2, sketch: Uint8Array.of(1) });
  });

  it('never discards a job that existed before the call', async () => {
    const kit = setup();
    const job = templateJob(1);
    await recordAndFanOut(kit.dependencies, { job, recipients: [{ index: 0, to: '919800000001', parameters: ['a'] }], listed: listed(1) });
    kit.queue.failure = new StoreUnavailableError('SQS is down');
    await expect(
      recordAndFanOut(kit.dependencies, { job, recipients: [{ index: 0, to: '919800000001', parameters: ['a'] }], listed: listed(1) }),
    ).rejects.toThrow(OutboundQueueUnavailableError);
    expect(kit.broadcasts.jobs.has('leg_1')).toBe(true);
    expect(kit.broadcasts.callsOf('discardJob')).toBe(0);
  });

  it('never discards a job that existed before the call, also when the failure comes before queueing', async () => {
    const kit = setup();
    const job = templateJob(1);
    await recordAndFanOut(kit.dependencies, { job, recipients: [{ index: 0, to: '919800000001', parameters: ['a'] }], listed: listed(1) });
    kit.broadcasts.failWhen = (method) => (method === 'reconcileChunk' ? new Error('store down') : undefined);
    await expect(recordAndFanOut(kit.dependencies, { job, recipients: [], refused: [], listed: listed(1) })).rejects.toThrow('store down');
    expect(kit.broadcasts.jobs.has('leg_1')).toBe(true);
    expect(kit.broadcasts.callsOf('discardJob')).toBe(0);
  });

  it('passes a storage failure on as it is, after discarding what was written', async () => {
    const kit = setup();
    const storeDown = new Error('store down');
    kit.broadcasts.failWhen = (method) => (method === 'recordOutcomes' ? storeDown : undefined);
    const refused = [{ index: 0, to: '1', status: 'FAILED' as const, failureReasonCode: '131014', attempts: 0, updatedAt: clock.now().toISOString() }];
    await expect(recordAndFanOut(kit.dependencies, { job: templateJob(1), recipients: [], refused, listed: listed(1) })).rejects.toBe(storeDown);
    expectNothingStored(kit.broadcasts);
  });
});

describe('accept paths when the queue fails', () => {
  it('send-template-broadcast: the job stays marked, the key is released, and a retry with the same key queues the same job again and clears the mark', async () => {
    const kit = setup();
    const upstream = new ScriptedCloudApi(clock);
    upstream.templates.set(SENDER.wabaId, [template()]);
    const idempotency = new InMemoryIdempotencyGuard();
    const dependencies = {
      ...kit.dependencies,
      senders: new InMemorySenderDirectory([SENDER]),
      templates: new TemplateCatalog(upstream, clock),
      idempotency,
      optOuts: new InboxSuppressionList(new InMemoryOptOutRepository()),
      media: new InMemoryUploadedMedia(),
      ...unlimitedMessaging(),
    };
    const send = () =>
      sendTemplateBroadcast(dependencies, { organizationId: ORG }, broadcastRequest(1_001), { idempotencyKey: 'k-1', inProgressTimeoutMs: 20_000 });
    const jobId = newJobId(randomIdGenerator, 'template', `${ORG}\nk-1`);

    kit.queue.failure = new StoreUnavailableError('SQS is down');
    await expect(send()).rejects.toThrow(OutboundQueueUnavailableError);
    expect(kit.broadcasts.jobs.get(jobId)).toMatchObject({ acceptFailedAt: clock.now().toISOString(), requestHash: expect.any(String) });
    // A keyed job waits for its retry: not cancelled.
    expect(kit.broadcasts.jobs.get(jobId)?.cancelledAt).toBeUndefined();
    expect(idempotency.records.size).toBe(0);

    kit.queue.failure = undefined;
    const accepted = await send();
    expect(accepted).toMatchObject({ kind: 'job', jobId, totalRecipients: 1_001, totalChunks: 2 });
    expect(kit.broadcasts.jobs.get(jobId)).toMatchObject({ kind: 'template', broadcastName: 'spring sale' });
    expect(kit.broadcasts.jobs.get(jobId)?.acceptFailedAt).toBeUndefined();
    expect(kit.queue.messages.flatMap((message) => message.recipients)).toHaveLength(1_001);
  });

  it('send-freeform: the job stays, cancelled and marked; a retry is a new job with no template', async () => {
    const kit = setup();
    const dependencies = { ...kit.dependencies, senders: new InMemorySenderDirectory([SENDER]), serviceWindow: new RecordedServiceWindow() };
    const request = { type: 'text' as const, text: 'Hi 😀', fromPhoneNumber: SENDER.phoneNumber, toPhoneNumber: '919800000009' };
    kit.queue.failure = new StoreUnavailableError('SQS is down');
    await expect(sendFreeformMessage(dependencies, { organizationId: ORG }, request)).rejects.toThrow(OutboundQueueUnavailableError);
    const [failed] = [...kit.broadcasts.jobs.values()];
    expect(failed).toMatchObject({ kind: 'freeform', acceptFailedAt: clock.now().toISOString(), cancelledAt: clock.now().toISOString() });

    kit.queue.failure = undefined;
    const { jobId } = await sendFreeformMessage(dependencies, { organizationId: ORG }, request);
    expect(jobId).not.toBe(failed!.jobId);
    const job = kit.broadcasts.jobs.get(jobId)!;
    expect(job).toMatchObject({ kind: 'freeform', messageType: 'text', totalRecipients: 1 });
    expect(job).not.toHaveProperty('template');
    expect(job).not.toHaveProperty('broadcastName');
    expect(job).not.toHaveProperty('acceptFailedAt');
    expect(kit.queue.messages).toEqual([expect.objectContaining({ kind: 'freeform', jobId, recipients: [{ index: 0, to: '919800000009', parameters: [] }] })]);
  });
});
