/** The chunk worker when Meta refuses the business account (docs/BROADCAST.md "When Meta refuses the account"). */
import { summarizeJob } from '../../../shared/broadcast/broadcast-job';
import type { TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { resumeJob } from '../../../shared/broadcast/resume-job';
import type { CustomerEvent } from '../../../shared/customer-events/ports';
import { accepted, chunkMessage, jobOf, rejected } from '../../support/broadcast-fakes';
import { START, baseSettings, setup, startMs, statusCounts, type ChunkWorkerKit } from './chunk-worker-kit';

const reading = () => ({ now: new Date(startMs + 600_000), unconfirmedAfterMs: 3_600_000 });
const heldRecipients = (kit: ChunkWorkerKit) =>
  kit.queue.batches.flatMap((batch) => batch.messages.flatMap((message) => message.recipients.map(({ index }) => index)));

function withEvents(kit: ChunkWorkerKit): CustomerEvent[] {
  const published: CustomerEvent[] = [];
  kit.dependencies.events = { publish: async (_organizationId, event) => void published.push(event) };
  return published;
}

describe('processOutboundChunk when Meta refuses the business account', () => {
  it.each([
    [131064, 'ACCOUNT_MESSAGING_LIMITED'],
    [131042, 'ACCOUNT_PAYMENT_ISSUE'],
    [131031, 'ACCOUNT_LOCKED'],
    [131048, 'ACCOUNT_SPAM_RATE_LIMITED'],
  ])('on %i mid-chunk: nothing beyond the in-flight sends is refused, nobody fails, the job is held until resumed as %s', async (code, reason) => {
    const kit = setup();
    const events = withEvents(kit);
    const message = chunkMessage(60);
    await kit.createJob(message);
    kit.upstream.onSend = () => {
      if (kit.upstream.sends.length === 10) kit.upstream.defaultOutcome = () => rejected(code, 400, `Meta refused (${code})`);
    };
    const report = await kit.run(message);

    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    expect(statusCounts(entries)).toEqual({ SENT: 9 });
    // Every lane stops at the first refusal: at most the sends in flight then were refused (131048 is not retried).
    expect(kit.upstream.sends.length).toBeLessThanOrEqual(9 + baseSettings.maxInFlight);
    expect(report).toMatchObject({ sent: 9, failed: 0, unknown: 0, held: 51, chunkDone: false });
    expect(heldRecipients(kit)).toHaveLength(51);
    expect(kit.queue.batches.map((batch) => batch.delaySeconds)).toEqual([60]);
    const job = (await kit.broadcasts.getJob(message.jobId))!;
    expect(job).toMatchObject({ pausedAt: expect.any(String), pauseReason: reason, pausedBy: 'meta', pauseCode: code, pauseText: `Meta refused (${code})` });
    expect(job.pauseFailsAt).toBeUndefined();
    expect(summarizeJob(job, await kit.broadcasts.getChunkProgress(message.jobId)).status).toBe('PAUSED');
    expect(events).toEqual([
      expect.objectContaining({
        type: 'job.paused',
        data: expect.objectContaining({ jobId: message.jobId, pause: expect.objectContaining({ reason, code, pausedBy: 'meta', failsAt: null }) }),
      }),
    ]);
  });

  it('stays held at every recheck however long it lasts (no deadline), then a resume sends the rest, each recipient exactly once', async () => {
    const kit = setup();
    kit.setDeadline(startMs + 30 * 24 * 3_600_000);
    const message = chunkMessage(40);
    await kit.createJob(message);
    kit.upstream.onSend = () => {
      if (kit.upstream.sends.length === 5) kit.upstream.defaultOutcome = () => rejected(131064);
    };
    await kit.run(message);
    const sendsWhenHeld = kit.upstream.sends.length;
    const pausedAt = (await kit.broadcasts.getJob(message.jobId))!.pausedAt;

    // A week later: still held, nothing sent, the pause keeps its time.
    kit.time.advanceBy(7 * 24 * 3_600_000);
    const held = kit.queue.batches.at(-1)!.messages[0]! as TemplateChunkMessage;
    expect(await kit.run(held)).toMatchObject({ sent: 0, failed: 0, held: held.recipients.length });
    expect(kit.upstream.sends).toHaveLength(sendsWhenHeld);
    expect((await kit.broadcasts.getJob(message.jobId))!.pausedAt).toBe(pausedAt);

    kit.upstream.defaultOutcome = undefined;
    kit.upstream.onSend = undefined;
    const caller = { organizationId: message.organizationId };
    expect(await resumeJob(kit.broadcasts, caller, message.jobId, reading())).toMatchObject({ jobId: message.jobId, status: 'PROCESSING' });
    const report = await kit.run(kit.queue.batches.at(-1)!.messages[0]! as TemplateChunkMessage);

    expect(report).toMatchObject({ sent: held.recipients.length, failed: 0, chunkDone: true });
    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    expect(statusCounts(entries)).toEqual({ SENT: 40 });
    const accepted = kit.upstream.sends.filter((_, index) => index < 4 || index >= sendsWhenHeld).map((send) => send.to);
    expect(new Set(accepted).size).toBe(accepted.length);
    const job = (await kit.broadcasts.getJob(message.jobId))!;
    expect(job.pausedAt).toBeUndefined();
    expect(summarizeJob(job, await kit.broadcasts.getChunkProgress(message.jobId)).status).toBe('COMPLETED');
  });

  it("holds the organization's other running jobs on the same account, not those on another account or already finished", async () => {
    const kit = setup();
    const events = withEvents(kit);
    const message = chunkMessage(20);
    await kit.createJob(message);
    const sibling = chunkMessage(10, { jobId: 'pub_sibling' });
    const elsewhere = chunkMessage(10, { jobId: 'pub_elsewhere', wabaId: 'waba_other' });
    await kit.broadcasts.createJob(jobOf(sibling, [10], START), [10]);
    await kit.broadcasts.createJob(jobOf(elsewhere, [10], START), [10]);
    kit.upstream.defaultOutcome = () => rejected(131031, 403, 'Account has been locked');
    await kit.run(message);

    expect(await kit.broadcasts.getJob('pub_sibling')).toMatchObject({ pauseReason: 'ACCOUNT_LOCKED', pausedBy: 'meta', pauseCode: 131031 });
    expect((await kit.broadcasts.getJob('pub_elsewhere'))!.pausedAt).toBeUndefined();
    expect(events.map((event) => event.data.jobId).sort()).toEqual([message.jobId, 'pub_sibling'].sort());

    // The sibling's worker sends nothing: its chunk is held at once.
    const sendsBefore = kit.upstream.sends.length;
    expect(await kit.run(sibling)).toMatchObject({ sent: 0, held: 10 });
    expect(kit.upstream.sends).toHaveLength(sendsBefore);
  });

  it('a resume is refused for a job that is not held until resumed', async () => {
    const kit = setup();
    const message = chunkMessage(5);
    await kit.createJob(message);
    await expect(resumeJob(kit.broadcasts, { organizationId: message.organizationId }, message.jobId, reading())).rejects.toMatchObject({
      code: 'JOB_NOT_PAUSED',
    });
  });
});

describe('processOutboundChunk when Meta refuses a country for the account (130497)', () => {
  it("fails only that country's recipients: the refused ones in flight with Meta's code, the rest unsent; the other countries are sent", async () => {
    const kit = setup();
    const base = chunkMessage(40);
    // Every other recipient is in the UK (+44); the others in India (+91).
    const message = {
      ...base,
      recipients: base.recipients.map((recipient) =>
        recipient.index % 2 === 1 ? { ...recipient, to: `44770090${String(recipient.index).padStart(4, '0')}` } : recipient,
      ),
    };
    await kit.createJob(message);
    let sent = 0;
    kit.upstream.defaultOutcome = (to) =>
      to.startsWith('44') ? rejected(130497, 403, 'Business account is restricted from messaging users in this country') : accepted(`wamid.${(sent += 1)}`);
    const report = await kit.run(message);

    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    const uk = entries.filter((entry) => entry.to.startsWith('44'));
    const india = entries.filter((entry) => entry.to.startsWith('91'));
    expect(statusCounts(india)).toEqual({ SENT: 20 });
    expect(statusCounts(uk)).toEqual({ FAILED: 20 });
    expect(uk.every((entry) => entry.failureReasonCode === '130497')).toBe(true);
    // Only the UK sends in flight when the first refusal came reached Meta.
    expect(kit.upstream.sends.filter((send) => send.to.startsWith('44')).length).toBeLessThanOrEqual(baseSettings.maxInFlight);
    expect(report).toMatchObject({ sent: 20, failed: 20, chunkDone: true });
    expect((await kit.broadcasts.readJobControl(message.jobId))!.refusedCountries).toEqual(['44']);
    expect((await kit.broadcasts.getJob(message.jobId))!.pausedAt).toBeUndefined();
  });
});
