/** Recipients the chunk worker will never send: a cancelled job's, and a message given up after its last delivery. */
import { abandonOutboundChunk } from '../../../shared/broadcast/chunk-worker/settle-chunk';
import { CANCELLATION_REFRESH_MS } from '../../../shared/broadcast/chunk-worker/job-control';
import { chunkMessage } from '../../support/broadcast-fakes';
import { START, setup, statusCounts } from './chunk-worker-kit';

describe('processOutboundChunk when the job is cancelled', () => {
  it('stops taking recipients once the cancel is seen: no send starts later than the refresh interval after it, and the rest are claimed CANCELLED', async () => {
    const kit = setup({ rate: 20 });
    const message = chunkMessage(60);
    await kit.createJob(message);
    let cancelledAtMs: number | undefined;
    kit.upstream.onSend = async () => {
      if (kit.upstream.sends.length === 10) {
        cancelledAtMs = kit.time.nowMs();
        await kit.broadcasts.cancelJob(message.jobId, new Date(cancelledAtMs));
      }
    };
    const report = await kit.run(message);

    const sent = kit.upstream.sends.length;
    expect(sent).toBeGreaterThanOrEqual(10);
    expect(sent).toBeLessThan(60);
    expect(kit.upstream.sends.filter((send) => send.at > cancelledAtMs! + CANCELLATION_REFRESH_MS)).toEqual([]);
    // Sends under way finish and keep their outcome; nobody else was sent, nobody is left out.
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: sent, CANCELLED: 60 - sent });
    expect(report).toMatchObject({ sent, cancelled: 60 - sent, continued: 0, chunkDone: true });
    expect(kit.queue.batches).toHaveLength(0);
    // One read serves the lanes between refreshes: far fewer than one per send.
    expect(kit.broadcasts.callsOf('readJobControl')).toBeLessThan(sent);
  });

  it('sends nothing for a chunk picked up after the cancel: every recipient is CANCELLED and the chunk is done', async () => {
    const kit = setup();
    const message = chunkMessage(30);
    await kit.createJob(message);
    await kit.broadcasts.cancelJob(message.jobId, new Date(START));
    const report = await kit.run(message);

    expect(kit.upstream.sends).toHaveLength(0);
    expect(report).toEqual({ sent: 0, failed: 0, unknown: 0, skipped: 0, continued: 0, cancelled: 30, chunkDone: true });
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ CANCELLED: 30 });
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ doneAt: expect.any(String) });
  });

  it('leaves claims it does not hold alone: a crashed claim becomes UNKNOWN, a sent one stays SENT, and a repeat changes nothing', async () => {
    const kit = setup();
    const message = chunkMessage(5);
    await kit.createJob(message);
    const { index: crashed, to: crashedTo } = message.recipients[1]!;
    const { index: sentIndex, to: sentTo } = message.recipients[3]!;
    await kit.broadcasts.claimRecipient(message.jobId, 0, crashed, crashedTo, new Date(START));
    await kit.broadcasts.claimRecipient(message.jobId, 0, sentIndex, sentTo, new Date(START));
    await kit.broadcasts.recordOutcomes(message.jobId, 0, [
      { index: sentIndex, to: sentTo, status: 'SENT', messageId: 'wamid.x', attempts: 1, updatedAt: START },
    ]);
    await kit.broadcasts.cancelJob(message.jobId, new Date(START));

    const report = await kit.run(message);
    expect(report).toMatchObject({ sent: 0, unknown: 1, skipped: 1, cancelled: 3, chunkDone: true });
    expect(kit.broadcasts.entry(message.jobId, 0, crashed)).toMatchObject({ status: 'UNKNOWN' });
    expect(kit.broadcasts.entry(message.jobId, 0, sentIndex)).toMatchObject({ status: 'SENT', messageId: 'wamid.x' });

    const again = await kit.run(message);
    expect(again).toMatchObject({ cancelled: 0, skipped: 5, chunkDone: true });
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: 1, UNKNOWN: 1, CANCELLED: 3 });
    expect(kit.upstream.sends).toHaveLength(0);
  });
});

describe('abandonOutboundChunk', () => {
  it('fails unclaimed recipients as WORKER_ERROR, turns crashed claims UNKNOWN and finishes the chunk', async () => {
    const kit = setup();
    const message = chunkMessage(10);
    await kit.createJob(message);
    const now = new Date(START);
    for (const { index, to } of message.recipients.slice(0, 3)) {
      await kit.broadcasts.claimRecipient(message.jobId, 0, index, to, now);
      await kit.broadcasts.recordOutcomes(message.jobId, 0, [{ index, to, status: 'SENT', messageId: `wamid.${index}`, attempts: 1, updatedAt: START }]);
    }
    await kit.broadcasts.addChunkProgress(message.jobId, 0, { sent: 3, failed: 0, unknown: 0, failuresByReason: {} });
    await kit.broadcasts.claimRecipient(message.jobId, 0, 3, message.recipients[3]!.to, now);

    await abandonOutboundChunk(kit.dependencies, message);

    expect(kit.upstream.sends).toHaveLength(0);
    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    expect(statusCounts(entries)).toEqual({ SENT: 3, UNKNOWN: 1, FAILED: 6 });
    expect(entries.filter((entry) => entry.status === 'FAILED').every((entry) => entry.failureReasonCode === 'WORKER_ERROR' && entry.attempts === 0)).toBe(
      true,
    );
    expect(entries[3]).toMatchObject({ status: 'UNKNOWN' });
    const [progress] = await kit.broadcasts.getChunkProgress(message.jobId);
    expect(progress).toMatchObject({ sent: 3, failed: 6, unknown: 1, failuresByReason: { WORKER_ERROR: 6 }, done: true });
  });
});
