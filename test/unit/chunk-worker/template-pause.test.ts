/** The chunk worker when Meta pauses the job's template (docs/BROADCAST.md "When Meta pauses a template"). */
import { summarizeJob } from '../../../shared/broadcast/broadcast-job';
import type { TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { TEMPLATE_STATE_REFRESH_MS, cancellationRefreshMs } from '../../../shared/broadcast/chunk-worker/job-control';
import { SENDER, chunkMessage, rejected } from '../../support/broadcast-fakes';
import { START, startMs, baseSettings, setup, statusCounts, type ChunkWorkerKit } from './chunk-worker-kit';

describe('processOutboundChunk when Meta pauses the job template', () => {
  const HOUR = 3_600_000;
  const templateEvent = (status: string, at: Date) => ({ name: 'order_update', language: 'en_US', status, templateId: 'tpl_1', at });
  const heldMessages = (kit: ChunkWorkerKit) =>
    kit.queue.batches.map((batch) => ({
      delaySeconds: batch.delaySeconds,
      recipients: batch.messages.flatMap((message) => message.recipients.map(({ index }) => index)),
    }));

  it('sends nothing for a chunk picked up while the template is PAUSED: the job is paused with the reason and the whole chunk is held for the recheck', async () => {
    const kit = setup();
    const message = chunkMessage(30);
    await kit.createJob(message);
    await kit.templateStates.record(SENDER.wabaId, templateEvent('PAUSED', new Date(startMs + 1000)));

    const report = await kit.run(message);
    expect(kit.upstream.sends).toHaveLength(0);
    expect(report).toMatchObject({ sent: 0, failed: 0, held: 30, chunkDone: false });
    expect(kit.broadcasts.entriesOf(message.jobId, 0)).toEqual([]);
    expect(heldMessages(kit)).toEqual([{ delaySeconds: 60, recipients: message.recipients.map(({ index }) => index) }]);
    expect(await kit.broadcasts.getJob(message.jobId)).toMatchObject({
      pausedAt: START,
      pauseReason: 'TEMPLATE_PAUSED',
      pauseFailsAt: new Date(startMs + 3 * HOUR).toISOString(),
    });
  });

  it('re-reads the job at the cancellation pace but the template state at most once a second (a refused send holds the job at once anyway)', async () => {
    // 20/s for 100 recipients: about 5 s of sending.
    const kit = setup({ rate: 20 });
    const message = chunkMessage(100);
    await kit.createJob(message);
    expect(await kit.run(message)).toMatchObject({ sent: 100, chunkDone: true });

    const seconds = (kit.time.nowMs() - startMs) / 1000;
    expect(seconds).toBeGreaterThan(4);
    const refreshMs = cancellationRefreshMs(20, baseSettings.maxInFlight);
    expect(refreshMs).toBeLessThan(TEMPLATE_STATE_REFRESH_MS);
    // The job item: at the cancellation pace; the template state: once at the start, then once per refresh.
    expect(kit.broadcasts.callsOf('readJobControl')).toBeGreaterThan(seconds * (1000 / refreshMs) * 0.5);
    expect(kit.templateStates.reads).toBeLessThanOrEqual(Math.ceil(seconds * (1000 / TEMPLATE_STATE_REFRESH_MS)) + 2);
  });

  it('ignores a state recorded before the job was accepted (the accept saw the template APPROVED)', async () => {
    const kit = setup();
    const message = chunkMessage(5);
    await kit.createJob(message);
    await kit.templateStates.record(SENDER.wabaId, templateEvent('PAUSED', new Date(startMs - 3 * HOUR)));
    expect(await kit.run(message)).toMatchObject({ sent: 5, chunkDone: true });
  });

  it('on 132015 mid-chunk: the refused recipients are released (not failed, not charged), no lane takes another, the rest is held and the job reads PAUSED', async () => {
    const kit = setup();
    const message = chunkMessage(60);
    await kit.createJob(message);
    kit.upstream.onSend = () => {
      if (kit.upstream.sends.length === 10) kit.upstream.defaultOutcome = () => rejected(132015, 400, 'Template is Paused');
    };
    const report = await kit.run(message);

    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    expect(statusCounts(entries)).toEqual({ SENT: 9 });
    // Every lane stops at its own refusal: at most one refused send per lane.
    expect(kit.upstream.sends.length).toBeLessThanOrEqual(9 + baseSettings.maxInFlight);
    expect(report).toMatchObject({ sent: 9, failed: 0, unknown: 0, held: 51, chunkDone: false });
    const sentIndexes = new Set(entries.map((entry) => entry.index));
    expect(heldMessages(kit)).toEqual([
      { delaySeconds: 60, recipients: message.recipients.map(({ index }) => index).filter((index) => !sentIndexes.has(index)) },
    ]);
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ sent: 9, failed: 0, failuresByReason: {} });
    const job = (await kit.broadcasts.getJob(message.jobId))!;
    expect(job).toMatchObject({ pausedAt: expect.any(String), pauseReason: 'TEMPLATE_PAUSED' });
    expect(summarizeJob(job, await kit.broadcasts.getChunkProgress(message.jobId)).status).toBe('PAUSED');
  });

  it('names a disabled template (132016) as the reason', async () => {
    const kit = setup();
    const message = chunkMessage(8);
    await kit.createJob(message);
    kit.upstream.defaultOutcome = () => rejected(132016, 400, 'Template is Disabled');
    expect(await kit.run(message)).toMatchObject({ sent: 0, failed: 0, held: 8 });
    expect(kit.broadcasts.entriesOf(message.jobId, 0)).toEqual([]);
    expect(await kit.broadcasts.getJob(message.jobId)).toMatchObject({ pauseReason: 'TEMPLATE_DISABLED' });
  });

  it('resumes when the template is APPROVED again: the pause is cleared and the held rest is sent, each recipient once', async () => {
    const kit = setup();
    kit.setDeadline(startMs + HOUR);
    const message = chunkMessage(40);
    await kit.createJob(message);
    kit.upstream.onSend = () => {
      if (kit.upstream.sends.length === 5) kit.upstream.defaultOutcome = () => rejected(132015);
    };
    await kit.run(message);
    await kit.templateStates.record(SENDER.wabaId, templateEvent('PAUSED', new Date(kit.time.nowMs())));
    const held = kit.queue.batches[0]!.messages[0]! as TemplateChunkMessage;

    // Still paused at the recheck: held again, the pause keeps its first time.
    kit.time.advanceBy(60_000);
    const pausedAt = (await kit.broadcasts.getJob(message.jobId))!.pausedAt;
    expect(await kit.run(held)).toMatchObject({ sent: 0, held: held.recipients.length });
    expect((await kit.broadcasts.getJob(message.jobId))!.pausedAt).toBe(pausedAt);

    kit.time.advanceBy(60_000);
    await kit.templateStates.record(SENDER.wabaId, templateEvent('APPROVED', new Date(kit.time.nowMs())));
    kit.upstream.defaultOutcome = undefined;
    kit.upstream.onSend = undefined;
    const sendsBeforeResume = kit.upstream.sends.length;
    const report = await kit.run(kit.queue.batches[1]!.messages[0]! as TemplateChunkMessage);

    expect(report).toMatchObject({ sent: held.recipients.length, failed: 0, chunkDone: true });
    const job = (await kit.broadcasts.getJob(message.jobId))!;
    expect(job.pausedAt).toBeUndefined();
    expect(job.pauseReason).toBeUndefined();
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: 40 });
    // After the resume each held recipient got exactly one send, and nobody sent before got another.
    expect(
      kit.upstream.sends
        .slice(sendsBeforeResume)
        .map((send) => send.to)
        .sort(),
    ).toEqual(held.recipients.map(({ to }) => to).sort());
    expect(new Set(kit.broadcasts.entriesOf(message.jobId, 0).map((entry) => entry.messageId)).size).toBe(40);
    expect(summarizeJob(job, await kit.broadcasts.getChunkProgress(message.jobId)).status).toBe('COMPLETED');
  });

  it('resumes without an event when a send is accepted again (a pause known only from refused sends)', async () => {
    const kit = setup();
    kit.setDeadline(startMs + HOUR);
    const message = chunkMessage(20);
    await kit.createJob(message);
    kit.upstream.defaultOutcome = () => rejected(132015);
    await kit.run(message);
    expect((await kit.broadcasts.getJob(message.jobId))!.pausedAt).toBeDefined();

    kit.upstream.defaultOutcome = undefined;
    kit.time.advanceBy(60_000);
    expect(await kit.run(kit.queue.batches[0]!.messages[0]! as TemplateChunkMessage)).toMatchObject({ sent: 20, chunkDone: true });
    expect((await kit.broadcasts.getJob(message.jobId))!.pausedAt).toBeUndefined();
  });

  it('fails the rest TEMPLATE_PAUSED once the pause outlasts the timeout (claimed directly, never sent), and the job finishes', async () => {
    const kit = setup({ settings: { templatePauseTimeoutMs: 90_000 } });
    kit.setDeadline(startMs + HOUR);
    const message = chunkMessage(30);
    await kit.createJob(message);
    kit.upstream.onSend = () => {
      if (kit.upstream.sends.length === 10) kit.upstream.defaultOutcome = () => rejected(132015);
    };
    await kit.run(message);
    const sendsBefore = kit.upstream.sends.length;

    // The recheck comes at 60 s, then no later than the deadline (30 s after it).
    kit.time.advanceBy(60_000);
    await kit.run(kit.queue.batches[0]!.messages[0]! as TemplateChunkMessage);
    expect(kit.queue.batches[1]!.delaySeconds).toBeLessThanOrEqual(31);
    kit.time.advanceBy(31_000);
    const report = await kit.run(kit.queue.batches[1]!.messages[0]! as TemplateChunkMessage);

    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    expect(statusCounts(entries)).toEqual({ SENT: 9, FAILED: 21 });
    expect(entries.filter((entry) => entry.status === 'FAILED').every((entry) => entry.failureReasonCode === 'TEMPLATE_PAUSED')).toBe(true);
    expect(report).toMatchObject({ failed: 21, chunkDone: true });
    // The recheck that still found the template paused sent a few probes at most (refused, released); the timeout sent nothing.
    expect(kit.upstream.sends.length - sendsBefore).toBeLessThanOrEqual(baseSettings.maxInFlight);
    expect(kit.queue.batches).toHaveLength(2);
    const job = (await kit.broadcasts.getJob(message.jobId))!;
    const { status, summary } = summarizeJob(job, await kit.broadcasts.getChunkProgress(message.jobId));
    expect(status).toBe('COMPLETED_WITH_FAILURES');
    expect(summary.failuresByReason).toEqual({ TEMPLATE_PAUSED: 21 });
  });

  it('cancelled while paused: the held rest is claimed CANCELLED when it comes back, nothing is sent', async () => {
    const kit = setup();
    kit.setDeadline(startMs + HOUR);
    const message = chunkMessage(12);
    await kit.createJob(message);
    await kit.templateStates.record(SENDER.wabaId, templateEvent('PAUSED', new Date(startMs)));
    await kit.run(message);
    await kit.broadcasts.cancelJob(message.jobId, new Date(kit.time.nowMs()));
    kit.time.advanceBy(60_000);
    const report = await kit.run(kit.queue.batches[0]!.messages[0]! as TemplateChunkMessage);
    expect(report).toMatchObject({ cancelled: 12, chunkDone: true });
    expect(kit.upstream.sends).toHaveLength(0);
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ CANCELLED: 12 });
  });
});
