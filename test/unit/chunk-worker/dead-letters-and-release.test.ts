/**
 * Every chunk ends accounted for (issue 23 item 14): a chunk message that reached the dead-letter
 * queue is settled there (chunk-dead-letters → abandonOutboundChunk), and a claim release that
 * fails is retried in place (the worker's store retries) before it surfaces.
 */
import type { SQSRecord } from 'aws-lambda';
import { handleDeadLetterRecord } from '../../../functions/chunk-dead-letters/handle-dead-letter-record';
import { summarizeJob } from '../../../shared/broadcast/broadcast-job';
import { encodeOutboundMessage } from '../../../shared/broadcast/chunk-message';
import { withStoreRetries } from '../../../functions/chunk-worker/chunk-store-retries';
import { processOutboundChunk } from '../../../shared/broadcast/chunk-worker/process-outbound-chunk';
import { abandonOutboundChunk } from '../../../shared/broadcast/chunk-worker/settle-chunk';
import type { CustomerEvent } from '../../../shared/customer-events/ports';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { chunkMessage, rejected } from '../../support/broadcast-fakes';
import { START, setup, startMs, statusCounts, type ChunkWorkerKit } from './chunk-worker-kit';

const deadLetter = (body: string, receiveCount = 1): SQSRecord =>
  ({
    messageId: 'dl-1',
    receiptHandle: 'rh-dl',
    body,
    attributes: { ApproximateReceiveCount: String(receiveCount) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:outbound-dlq',
    awsRegion: 'us-east-1',
  }) as unknown as SQSRecord;

/** The kit with a recording publisher of customer events (job.completed). */
function withEvents(kit: ChunkWorkerKit): CustomerEvent[] {
  const published: CustomerEvent[] = [];
  kit.dependencies.events = { publish: async (_organizationId, event) => void published.push(event) };
  return published;
}

/** A chunk whose first delivery sent 3 recipients and crashed during the 4th send (its claim stays SENDING). */
async function crashedChunk(kit: ChunkWorkerKit, size = 10) {
  const message = chunkMessage(size);
  await kit.createJob(message);
  const now = new Date(START);
  for (const { index, to } of message.recipients.slice(0, 3)) {
    await kit.broadcasts.claimRecipient(message.jobId, 0, index, to, now);
    await kit.broadcasts.recordOutcomes(message.jobId, 0, [{ index, to, status: 'SENT', messageId: `wamid.${index}`, attempts: 1, updatedAt: START }]);
  }
  await kit.broadcasts.addChunkProgress(message.jobId, 0, { sent: 3, failed: 0, unknown: 0, failuresByReason: {} });
  await kit.broadcasts.claimRecipient(message.jobId, 0, 3, message.recipients[3]!.to, now);
  await kit.broadcasts.markChunkStarted(message.jobId, 0, now);
  return message;
}

describe('a chunk message in the dead-letter queue (chunk-dead-letters)', () => {
  it('is settled without a send: unclaimed recipients FAILED WORKER_ERROR, the crashed claim UNKNOWN, the job finished and announced', async () => {
    const kit = setup();
    const published = withEvents(kit);
    const message = await crashedChunk(kit);

    const report = await handleDeadLetterRecord(kit.dependencies, deadLetter(encodeOutboundMessage(message), 1));

    expect(kit.upstream.sends).toHaveLength(0);
    expect(report).toMatchObject({ failed: 6, unknown: 1, skipped: 3, chunkDone: true });
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: 3, UNKNOWN: 1, FAILED: 6 });
    const job = (await kit.broadcasts.getJob(message.jobId))!;
    const { status, summary } = summarizeJob(job, await kit.broadcasts.getChunkProgress(message.jobId));
    expect(status).toBe('COMPLETED_WITH_FAILURES');
    expect(summary).toMatchObject({ sent: 3, failed: 6, unknown: 1, pending: 0, chunksDone: 1, failuresByReason: { WORKER_ERROR: 6 } });
    expect(published.map((event) => [event.type, (event.data as { status: string }).status])).toEqual([['job.completed', 'COMPLETED_WITH_FAILURES']]);
  });

  it('received twice (SQS may): the second settling changes nothing and announces the same event (one id)', async () => {
    const kit = setup();
    const published = withEvents(kit);
    const message = await crashedChunk(kit);
    await handleDeadLetterRecord(kit.dependencies, deadLetter(encodeOutboundMessage(message), 1));
    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    const chunk = kit.broadcasts.chunk(message.jobId, 0);

    const again = await handleDeadLetterRecord(kit.dependencies, deadLetter(encodeOutboundMessage(message), 2));
    expect(again).toMatchObject({ failed: 0, unknown: 0, skipped: 10, chunkDone: true });
    expect(kit.broadcasts.entriesOf(message.jobId, 0)).toEqual(entries);
    expect(kit.broadcasts.chunk(message.jobId, 0)).toEqual(chunk);
    expect(new Set(published.map((event) => event.id)).size).toBe(1);
  });

  it('a store outage fails the record (it stays in the dead-letter queue for the next try) and the next try settles it', async () => {
    const kit = setup();
    const message = await crashedChunk(kit);
    kit.broadcasts.failWhen = (method) => (method === 'claimRecipient' ? new StoreUnavailableError('messaging table unavailable') : undefined);
    await expect(handleDeadLetterRecord(kit.dependencies, deadLetter(encodeOutboundMessage(message), 1))).rejects.toThrow(StoreUnavailableError);
    expect(kit.broadcasts.chunk(message.jobId, 0)).not.toHaveProperty('doneAt');

    kit.broadcasts.failWhen = undefined;
    await expect(handleDeadLetterRecord(kit.dependencies, deadLetter(encodeOutboundMessage(message), 2))).resolves.toMatchObject({
      failed: 6,
      unknown: 1,
      chunkDone: true,
    });
  });

  it('a body that is not a chunk message fails the record: nothing to settle, left for an operator', async () => {
    const kit = setup();
    await expect(handleDeadLetterRecord(kit.dependencies, deadLetter('{"not":"a chunk"}'))).rejects.toThrow();
  });
});

describe('abandonOutboundChunk', () => {
  it('settles the rest of a job cancelled meanwhile as CANCELLED, not WORKER_ERROR: the job reads CANCELLED', async () => {
    const kit = setup();
    const message = await crashedChunk(kit);
    await kit.broadcasts.cancelJob(message.jobId, new Date(START));

    const report = await abandonOutboundChunk(kit.dependencies, message);
    expect(report).toMatchObject({ cancelled: 6, unknown: 1, failed: 0, chunkDone: true });
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: 3, UNKNOWN: 1, CANCELLED: 6 });
    const job = (await kit.broadcasts.getJob(message.jobId))!;
    expect(summarizeJob(job, await kit.broadcasts.getChunkProgress(message.jobId)).status).toBe('CANCELLED');
  });

  it('settles nothing for a job discarded at accept time (its chunk does not exist): no ledger entry is created', async () => {
    const kit = setup();
    const message = chunkMessage(5);
    const report = await abandonOutboundChunk(kit.dependencies, message);
    expect(report).toMatchObject({ skipped: 5, failed: 0, chunkDone: true });
    expect(kit.broadcasts.entriesOf(message.jobId, 0)).toEqual([]);
    expect(kit.broadcasts.callsOf('claimRecipient')).toBe(0);
  });
});

describe('a claim release that fails (template refused with 132015)', () => {
  const refusedOne = async (kit: ChunkWorkerKit) => {
    const message = chunkMessage(1);
    await kit.createJob(message);
    kit.upstream.defaultOutcome = () => rejected(132015, 400, 'Template is Paused');
    return message;
  };

  it('is retried in place: two failed attempts, then the release lands and the recipient is held (not SENDING, so not UNKNOWN later)', async () => {
    const kit = setup();
    const message = await refusedOne(kit);
    kit.broadcasts.failWhen = (method, call) => (method === 'releaseClaim' && call <= 2 ? new StoreUnavailableError('timeout') : undefined);
    const invocation = { remainingTimeMs: () => startMs + 120_000 - kit.time.nowMs() };

    const report = await kit.time.run(() => processOutboundChunk(withStoreRetries(kit.dependencies, invocation), message, invocation));
    expect(report).toMatchObject({ sent: 0, failed: 0, unknown: 0, held: 1 });
    expect(kit.broadcasts.callsOf('releaseClaim')).toBe(3);
    expect(kit.broadcasts.entriesOf(message.jobId, 0)).toEqual([]);
  });

  it('surfaces when it cannot land: the delivery fails (the record comes back) instead of swallowing it', async () => {
    const kit = setup();
    const message = await refusedOne(kit);
    kit.broadcasts.failWhen = (method) => (method === 'releaseClaim' ? new StoreUnavailableError('timeout') : undefined);

    await expect(kit.run(message)).rejects.toThrow(StoreUnavailableError);
    expect(kit.broadcasts.callsOf('releaseClaim')).toBe(1);
    // The claim the release could not remove stays SENDING: the next delivery counts it UNKNOWN, never resends it.
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENDING: 1 });
    expect(kit.queue.batches).toHaveLength(0);
  });
});
