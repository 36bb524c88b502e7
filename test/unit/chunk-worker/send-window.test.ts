/**
 * The chunk worker keeps the job's send window (docs/CAMPAIGNS.md "Send windows"): recipients
 * outside their window in their own zone are not claimed, get a waiting tally code and come back
 * in a new message delayed until their opening (at most the re-check); a recipient whose window
 * closes while the chunk runs waits for the next opening.
 */
import { decodeOutboundMessage, encodeOutboundMessage, type ChunkRecipient } from '../../../shared/broadcast/chunk-message';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { chunkMessage } from '../../support/broadcast-fakes';
import { setup } from './chunk-worker-kit';

// The kit starts at 2026-03-01T09:00Z (a Sunday): 14:30 in India, 09:00 in London, 04:00 in New York, 01:00 in Los Angeles.
const india = (index: number): ChunkRecipient => ({ index, to: `9198000000${String(index).padStart(2, '0')}`, parameters: ['A'] });
const newYork = (index: number): ChunkRecipient => ({ index, to: `1212555${String(index).padStart(4, '0')}`, parameters: ['A'] });
const losAngeles = (index: number): ChunkRecipient => ({ index, to: `1415555${String(index).padStart(4, '0')}`, parameters: ['A'] });

describe('the chunk worker and the send window', () => {
  it('sends only recipients inside their window and re-queues the rest, unclaimed, delayed until the earliest opening', async () => {
    const kit = setup({ settings: { waitingRecheckSeconds: 900 } });
    const recipients = [india(0), newYork(1), losAngeles(2), india(3), { ...losAngeles(4), timeZone: 'Asia/Tokyo' }];
    const message = chunkMessage(0, { recipients, sendRules: { sendWindow: { from: '09:00', to: '20:00' } } });
    await kit.createJob(message);
    const report = await kit.run(message);
    expect(report).toMatchObject({ sent: 3, waiting: 2, chunkDone: false });
    expect(kit.upstream.sends.map((send) => send.to).sort()).toEqual([india(0).to, india(3).to, losAngeles(4).to].sort());
    expect(kit.queue.batches).toHaveLength(1);
    const [held] = kit.queue.batches;
    // New York opens at 14:00Z, five hours on: the re-check (900 s) comes first.
    expect(held!.delaySeconds).toBe(900);
    expect(held!.messages[0]!.recipients.map((recipient) => recipient.index)).toEqual([1, 2]);
    expect(decodeOutboundMessage(encodeOutboundMessage(held!.messages[0]!))).toEqual(held!.messages[0]);
    const tally = new Map((await kit.broadcasts.getJobProgress(message.jobId)).tally);
    expect(tally.get(1)).toBe(tallyCodes.waitingForWindow(new Date('2026-03-01T14:00:00.000Z')));
    expect(tally.get(2)).toBe(tallyCodes.waitingForWindow(new Date('2026-03-01T17:00:00.000Z')));
    expect(
      kit.broadcasts
        .entriesOf(message.jobId, 0)
        .map((entry) => entry.index)
        .sort(),
    ).toEqual([0, 3, 4]);
  });

  it('the re-queued message sends them once their window opened, and the chunk finishes', async () => {
    const kit = setup();
    const message = chunkMessage(0, { recipients: [india(0), newYork(1)], sendRules: { sendWindow: { from: '09:00', to: '20:00' } } });
    await kit.createJob(message);
    await kit.run(message);
    kit.time.advanceBy(5 * 3_600_000);
    kit.setDeadline(kit.time.nowMs() + 120_000);
    const report = await kit.run(kit.queue.batches[0]!.messages[0] as typeof message);
    expect(report).toMatchObject({ sent: 1, chunkDone: true });
    expect(report.waiting).toBeUndefined();
    expect(kit.upstream.sendsTo(newYork(1).to)).toHaveLength(1);
  });

  it('holds a whole chunk outside its window without taking the account turn, delayed by the re-check setting', async () => {
    const kit = setup({ settings: { waitingRecheckSeconds: 1 } });
    const message = chunkMessage(0, { recipients: [newYork(0), newYork(1)], sendRules: { sendWindow: { from: '09:00', to: '20:00', days: ['mon'] } } });
    await kit.createJob(message);
    const report = await kit.run(message);
    expect(report).toMatchObject({ sent: 0, waiting: 2, chunkDone: false });
    expect(kit.upstream.sends).toHaveLength(0);
    expect(kit.queue.batches[0]!.delaySeconds).toBe(1);
    const tally = new Map((await kit.broadcasts.getJobProgress(message.jobId)).tally);
    expect(tally.get(0)).toBe(tallyCodes.waitingForWindow(new Date('2026-03-02T14:00:00.000Z')));
  });

  it('a window of a named zone applies to everyone; none: everyone goes', async () => {
    const kit = setup();
    const named = chunkMessage(0, { recipients: [india(0), newYork(1)], sendRules: { sendWindow: { from: '08:00', to: '10:00', timeZone: 'Europe/London' } } });
    await kit.createJob(named);
    expect(await kit.run(named)).toMatchObject({ sent: 2, chunkDone: true });
    const plain = chunkMessage(0, { jobId: 'pub_job2', recipients: [newYork(0)] });
    await kit.createJob(plain);
    expect(await kit.run(plain)).toMatchObject({ sent: 1, chunkDone: true });
  });

  it('a recipient whose window closes while the chunk runs is not claimed; they wait for the next opening', async () => {
    const kit = setup({ rate: 10 });
    kit.setDeadline(new Date('2026-03-01T09:00:00.000Z').getTime() + 600_000);
    // Closes at 09:01Z: at 10 a second, about 600 of the 1,000 go before it.
    const message = chunkMessage(1000, { sendRules: { sendWindow: { from: '00:00', to: '09:01', timeZone: 'UTC' } } });
    await kit.createJob(message);
    const report = await kit.run(message);
    expect(report.sent).toBeGreaterThan(500);
    expect(report.sent).toBeLessThan(700);
    expect(report.sent + (report.waiting ?? 0)).toBe(1000);
    // A send starts on its slot, before the close (its call may begin a few ms after the slot: the claim's write).
    expect(kit.upstream.sends.every((send) => send.at < new Date('2026-03-01T09:01:00.100Z').getTime())).toBe(true);
    const held = kit.queue.batches.flatMap((batch) => batch.messages.flatMap((queued) => queued.recipients));
    expect(held).toHaveLength(report.waiting!);
    const tally = new Map((await kit.broadcasts.getJobProgress(message.jobId)).tally);
    expect(tally.get(held[0]!.index)).toBe(tallyCodes.waitingForWindow(new Date('2026-03-02T00:00:00.000Z')));
    expect(kit.broadcasts.entriesOf(message.jobId, 0)).toHaveLength(report.sent);
  });
});
