import { holdWaiting, waitingDelaySeconds } from '../../../shared/broadcast/chunk-worker/waiting-rest';
import { emptyReport } from '../../../shared/broadcast/chunk-outcomes';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { chunkMessage, InMemoryBroadcastRepository, jobOf, RecordingOutboundQueue, VirtualTime } from '../../support/broadcast-fakes';

const at = (iso: string) => new Date(iso);

describe('holdWaiting: recipients that must wait are re-queued, not claimed', () => {
  async function setUp(recheck?: number) {
    const message = chunkMessage(4, { sendRules: { sendWindow: { from: '09:00', to: '20:00' } } });
    const broadcasts = new InMemoryBroadcastRepository();
    await broadcasts.createJob(jobOf(message), [4]);
    const queue = new RecordingOutboundQueue();
    const clock = new VirtualTime('2026-06-01T08:00:00.000Z');
    const dependencies = { broadcasts, queue, clock, settings: recheck === undefined ? {} : { waitingRecheckSeconds: recheck } };
    return { message, broadcasts, queue, dependencies };
  }

  it('writes each waiting code, re-queues them as one message delayed until the earliest, and counts them', async () => {
    const { message, broadcasts, queue, dependencies } = await setUp();
    const [r0, r1, r2] = message.recipients;
    const report = await holdWaiting(
      dependencies,
      message,
      [
        { recipient: r2!, until: at('2026-06-01T08:10:00.000Z'), why: 'window' },
        { recipient: r0!, until: at('2026-06-01T08:05:00.000Z'), why: 'cap' },
        { recipient: r1!, until: at('2026-06-01T20:00:00.000Z'), why: 'window' },
      ],
      emptyReport(),
    );
    expect(report.waiting).toBe(3);
    expect(queue.batches).toHaveLength(1);
    expect(queue.batches[0]!.delaySeconds).toBe(300);
    expect(queue.batches[0]!.messages[0]!.recipients.map((recipient) => recipient.index)).toEqual([0, 1, 2]);
    expect(queue.batches[0]!.messages[0]!.sendRules).toEqual(message.sendRules);
    const tally = new Map((await broadcasts.getJobProgress(message.jobId)).tally);
    expect(tally.get(0)).toBe(tallyCodes.waitingForCap(at('2026-06-01T08:05:00.000Z')));
    expect(tally.get(1)).toBe(tallyCodes.waitingForWindow(at('2026-06-01T20:00:00.000Z')));
    expect(tally.get(3)).toBeUndefined();
    expect(await broadcasts.claimRecipient(message.jobId, 0, 0, message.recipients[0]!.to, new Date())).toEqual({ claimed: true });
  });

  it('does nothing for nobody', async () => {
    const { message, queue, dependencies } = await setUp();
    const report = await holdWaiting(dependencies, message, [], emptyReport());
    expect(report.waiting).toBeUndefined();
    expect(queue.batches).toHaveLength(0);
  });

  it('waits at most the re-check setting and the SQS limit, at least one second', () => {
    const now = at('2026-06-01T08:00:00.000Z');
    expect(waitingDelaySeconds(now, [at('2026-06-02T09:00:00.000Z')])).toBe(900);
    expect(waitingDelaySeconds(now, [at('2026-06-02T09:00:00.000Z')], 1)).toBe(1);
    expect(waitingDelaySeconds(now, [at('2026-06-02T09:00:00.000Z')], 5000)).toBe(900);
    expect(waitingDelaySeconds(now, [at('2026-06-01T07:00:00.000Z')])).toBe(1);
    expect(waitingDelaySeconds(now, [at('2026-06-01T08:00:00.400Z')])).toBe(1);
  });

  it('a failed enqueue throws (the message comes back whole; nothing was claimed)', async () => {
    const { message, queue, dependencies } = await setUp(60);
    queue.failure = new Error('queue down');
    await expect(
      holdWaiting(dependencies, message, [{ recipient: message.recipients[0]!, until: at('2026-06-01T09:00:00.000Z'), why: 'window' }], emptyReport()),
    ).rejects.toThrow('queue down');
  });
});
