/** A person's pause of a job (docs/BROADCAST.md "Pausing a job"): the chunk worker on fakes. */
import { summarizeJob } from '../../../shared/broadcast/broadcast-job';
import type { TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { USER_PAUSE_LIMIT_MS } from '../../../shared/broadcast/chunk-worker/job-control';
import { cancelJob } from '../../../shared/broadcast/cancel-job';
import { pauseJob } from '../../../shared/broadcast/pause-job';
import { resumeJob } from '../../../shared/broadcast/resume-job';
import type { CustomerEvent } from '../../../shared/customer-events/ports';
import { chunkMessage, jobOf } from '../../support/broadcast-fakes';
import { START, setup, statusCounts, type ChunkWorkerKit } from './chunk-worker-kit';

const caller = (message: TemplateChunkMessage) => ({ organizationId: message.organizationId, credentialId: 'cred_ops' });
const readingOf = (kit: ChunkWorkerKit) => ({ now: kit.time.now(), unconfirmedAfterMs: 3_600_000 });
const lastHeld = (kit: ChunkWorkerKit) => kit.queue.batches.at(-1)!.messages[0]! as TemplateChunkMessage;

function withEvents(kit: ChunkWorkerKit): CustomerEvent[] {
  const published: CustomerEvent[] = [];
  kit.dependencies.events = { publish: async (_organizationId, event) => void published.push(event) };
  return published;
}

async function statusOf(kit: ChunkWorkerKit, jobId: string) {
  const job = (await kit.broadcasts.getJob(jobId))!;
  return summarizeJob(job, await kit.broadcasts.getChunkProgress(jobId)).status;
}

describe('a person pauses a job (pausedBy user)', () => {
  it('mid-chunk: sends under way finish, nothing else goes, nobody fails; after the resume each remaining recipient is sent exactly once', async () => {
    const kit = setup();
    kit.setDeadline(Date.parse(START) + 30 * 24 * 3_600_000);
    const message = chunkMessage(60);
    await kit.createJob(message);
    let paused: Promise<unknown> | undefined;
    kit.upstream.onSend = () => {
      if (kit.upstream.sends.length === 10) paused = pauseJob({ broadcasts: kit.broadcasts }, caller(message), message.jobId, readingOf(kit));
    };
    const report = await kit.run(message);
    await expect(paused).resolves.toMatchObject({ status: 'PAUSED', pause: { reason: 'PAUSED_BY_USER', pausedBy: 'user', by: 'cred_ops', failsAt: null } });
    const sendsWhenHeld = kit.upstream.sends.length;
    expect(report).toMatchObject({ failed: 0, unknown: 0, chunkDone: false });
    expect(report.sent + (report.held ?? 0)).toBe(60);
    expect(report.held).toBeGreaterThan(30);
    expect(await statusOf(kit, message.jobId)).toBe('PAUSED');

    // Held at every recheck, however long (below the limit): nothing sent.
    kit.time.advanceBy(3 * 24 * 3_600_000);
    expect(await kit.run(lastHeld(kit))).toMatchObject({ sent: 0, held: report.held });
    expect(kit.upstream.sends).toHaveLength(sendsWhenHeld);

    await resumeJob(kit.broadcasts, caller(message), message.jobId, readingOf(kit));
    expect(await kit.run(lastHeld(kit))).toMatchObject({ sent: report.held, chunkDone: true });
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: 60 });
    const sentTo = kit.upstream.sends.map((send) => send.to);
    expect(new Set(sentTo).size).toBe(60);
    expect(sentTo).toHaveLength(60);
    expect(await statusOf(kit, message.jobId)).toBe('COMPLETED');
  });

  it('announces job.paused once, and campaign.paused for a campaign job; a repeat answers the same pause', async () => {
    const kit = setup();
    const events = withEvents(kit);
    const message = chunkMessage(5);
    await kit.broadcasts.createJob({ ...jobOf(message, [5], START), campaignId: 'cmp_1' } as ReturnType<typeof jobOf>, [5]);
    const ports = { broadcasts: kit.broadcasts, events: kit.dependencies.events };
    const first = await pauseJob(ports, caller(message), message.jobId, readingOf(kit));
    kit.time.advanceBy(5_000);
    const again = await pauseJob(ports, { organizationId: message.organizationId, credentialId: 'cred_other' }, message.jobId, readingOf(kit));
    expect(again.pause).toEqual(first.pause);
    expect(events.map((event) => event.type)).toEqual(['job.paused', 'campaign.paused']);
    expect(events[1]!.data).toMatchObject({ campaignId: 'cmp_1', jobId: message.jobId, state: 'PAUSED', pause: { pausedBy: 'user', by: 'cred_ops' } });
  });

  it("replaces a template pause (then only a resume ends it); keeps Meta's hold of the account", async () => {
    const kit = setup();
    const message = chunkMessage(5);
    await kit.createJob(message);
    await kit.broadcasts.pauseJob(message.jobId, { pausedAt: START, reason: 'TEMPLATE_PAUSED', failsAt: '2026-03-01T15:00:00.000Z', pausedBy: 'meta' });
    expect((await pauseJob({ broadcasts: kit.broadcasts }, caller(message), message.jobId, readingOf(kit))).pause).toMatchObject({
      pausedBy: 'user',
      failsAt: null,
    });

    const other = chunkMessage(5, { jobId: 'pub_held' });
    await kit.createJob(other);
    const hold = { pausedAt: START, reason: 'ACCOUNT_LOCKED', pausedBy: 'meta' as const, code: 131031 };
    await kit.broadcasts.pauseJob(other.jobId, hold);
    expect((await pauseJob({ broadcasts: kit.broadcasts }, caller(other), other.jobId, readingOf(kit))).pause).toMatchObject({
      reason: 'ACCOUNT_LOCKED',
      pausedBy: 'meta',
      code: 131031,
    });
  });

  it('refuses a finished or cancelled job (409 JOB_ALREADY_FINISHED)', async () => {
    const kit = setup();
    const message = chunkMessage(3);
    await kit.createJob(message);
    await kit.run(message);
    await expect(pauseJob({ broadcasts: kit.broadcasts }, caller(message), message.jobId, readingOf(kit))).rejects.toMatchObject({
      code: 'JOB_ALREADY_FINISHED',
    });
    const cancelled = chunkMessage(3, { jobId: 'pub_cancelled' });
    await kit.createJob(cancelled);
    await cancelJob(kit.broadcasts, caller(cancelled), cancelled.jobId, readingOf(kit));
    await expect(pauseJob({ broadcasts: kit.broadcasts }, caller(cancelled), cancelled.jobId, readingOf(kit))).rejects.toMatchObject({
      code: 'JOB_ALREADY_FINISHED',
    });
  });

  it('past the limit (30 days) the held job is cancelled (PAUSE_EXPIRED): its rest CANCELLED, never sent, the job finishes CANCELLED', async () => {
    const kit = setup();
    const message = chunkMessage(20);
    await kit.createJob(message);
    await pauseJob({ broadcasts: kit.broadcasts }, caller(message), message.jobId, readingOf(kit));
    expect(await kit.run(message)).toMatchObject({ sent: 0, held: 20 });
    kit.time.advanceBy(USER_PAUSE_LIMIT_MS);
    expect(await kit.run(lastHeld(kit))).toMatchObject({ sent: 0, chunkDone: true });
    expect(kit.upstream.sends).toHaveLength(0);
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ CANCELLED: 20 });
    expect(await kit.broadcasts.getJob(message.jobId)).toMatchObject({ cancelReason: 'PAUSE_EXPIRED' });
    expect(await statusOf(kit, message.jobId)).toBe('CANCELLED');
  });

  it("a canary's halt awaiting a person has the same 30-day limit", async () => {
    const kit = setup();
    const message = chunkMessage(5);
    await kit.createJob(message);
    await kit.broadcasts.pauseJob(message.jobId, { pausedAt: kit.time.now().toISOString(), reason: 'CANARY_HALTED', pausedBy: 'canary' });
    expect(await kit.run(message)).toMatchObject({ sent: 0, held: 5 });
    kit.time.advanceBy(USER_PAUSE_LIMIT_MS - 1000);
    expect(await kit.run(lastHeld(kit))).toMatchObject({ sent: 0, held: 5 });
    kit.time.advanceBy(1000);
    expect(await kit.run(lastHeld(kit))).toMatchObject({ sent: 0, chunkDone: true });
    expect(await kit.broadcasts.getJob(message.jobId)).toMatchObject({ cancelReason: 'PAUSE_EXPIRED' });
  });
});
