/** Scheduled broadcasts with fakes: the scheduledAt rules, accepting a scheduled job, firing, the sweep, cancelling before firing. */
import * as v from 'valibot';
import { summarizeJob } from '../../../shared/broadcast/broadcast-job';
import { cancelJob } from '../../../shared/broadcast/cancel-job';
import { ScheduledAtError, TemplateNotFoundError } from '../../../shared/broadcast/errors';
import { fireScheduledJob, sweepDueJobs } from '../../../shared/broadcast/fire-scheduled-job';
import { sendTemplateBroadcast, type SendTemplateBroadcastDependencies } from '../../../shared/broadcast/send-template-broadcast';
import { listRecipients } from '../../../shared/broadcast/list-recipients';
import { scheduleWindowSchema, templateBroadcastSchema, type TemplateBroadcastRequest } from '../../../shared/broadcast/template-broadcast.schema';
import { parseRequest } from '../../../shared/http/validation';
import { fixedClock } from '../../../shared/ports/clock';
import { ORG, broadcastRequest } from '../../support/broadcast-fakes';
import { templateBroadcastKit } from '../../support/template-broadcast-kit';
import { InMemoryScheduledJobStore, RecordingFiringScheduler } from '../../support/scheduled-job-fakes';

const NOW = '2026-03-01T09:00:00.000Z';
const MIN_LEAD_SECONDS = 300;
const at = (offsetSeconds: number) => new Date(Date.parse(NOW) + offsetSeconds * 1000).toISOString();

function setup() {
  const clock = fixedClock(NOW);
  const kit = templateBroadcastKit(clock);
  const { broadcasts, queue } = kit;
  const scheduledJobs = new InMemoryScheduledJobStore(broadcasts);
  const firings = new RecordingFiringScheduler();
  const dependencies: SendTemplateBroadcastDependencies = { ...kit.dependencies, scheduling: { scheduledJobs, firings, minLeadSeconds: MIN_LEAD_SECONDS } };
  const send = (request: TemplateBroadcastRequest) => sendTemplateBroadcast(dependencies, { organizationId: ORG }, request, { inProgressTimeoutMs: 20_000 });
  /** Organizations an operator suspended (the standing port's answer). */
  const suspended = new Set<string>();
  const standing = { isSuspended: async (organizationId: string) => suspended.has(organizationId) };
  const firing = { scheduledJobs, queue, clock, jobs: broadcasts, standing };
  const reading = () => ({ now: clock.now(), unconfirmedAfterMs: 86_400_000 });
  return { clock, broadcasts, queue, scheduledJobs, firings, send, firing, reading, suspended };
}

const scheduled = (count: number, scheduledAt: string) => broadcastRequest(count, { scheduledAt });

describe('scheduledAt rules', () => {
  const bodyWith = (scheduledAt: unknown) => ({ ...broadcastRequest(1), scheduledAt });
  it.each([
    ['2026-03-01 10:00:00Z', 'no T'],
    ['2026-03-01T10:00:00', 'no offset (a local time)'],
    ['2026-02-30T10:00:00Z', 'no such day'],
    ['2026-03-01T24:00:00Z', 'no such hour'],
    ['tomorrow', 'not a time'],
  ])('refuses %s (%s), naming the field and the rule', (scheduledAt) => {
    expect(() => parseRequest(templateBroadcastSchema, bodyWith(scheduledAt))).toThrow(
      'scheduledAt must be an ISO 8601 date and time with a UTC offset or Z (e.g. 2026-03-01T09:00:00Z or 2026-03-01T10:00:00+01:00)',
    );
  });

  it('takes Z, offsets, fractions and a time without seconds', () => {
    for (const text of ['2026-03-01T10:00:00Z', '2026-03-01T10:00:00.123+05:30', '2026-03-01T10:00-08:00']) {
      expect(parseRequest(templateBroadcastSchema, bodyWith(text)).scheduledAt).toBe(text);
    }
  });

  it('must be at least the minimum lead and at most 35 days ahead', () => {
    const window = scheduleWindowSchema(new Date(NOW), 300);
    const messageOf = (text: string) => {
      const result = v.safeParse(window, text, { abortPipeEarly: true });
      return result.success ? undefined : result.issues[0].message;
    };
    expect(messageOf(at(299))).toBe('must be at least 5 minutes in the future');
    expect(messageOf(at(300))).toBeUndefined();
    expect(messageOf(at(35 * 86_400))).toBeUndefined();
    expect(messageOf(at(35 * 86_400 + 1))).toBe('must be at most 35 days in the future');
    // The same instant written with an offset.
    expect(messageOf('2026-03-01T10:30:00+01:00')).toBeUndefined();
    expect(v.safeParse(scheduleWindowSchema(new Date(NOW), 1), at(0)).issues?.[0].message).toBe('must be at least 1 second in the future');
  });
});

describe('accepting a scheduled broadcast', () => {
  it('answers SCHEDULED with the job whatever its size, holds its messages and registers one trigger at its time', async () => {
    const kit = setup();
    const result = await kit.send(scheduled(3, '2026-03-01T11:00:00+01:00'));
    expect(result).toEqual({
      kind: 'scheduled',
      jobId: expect.any(String),
      status: 'SCHEDULED',
      scheduledAt: at(3600),
      totalRecipients: 3,
      chunkSize: 1000,
      totalChunks: 1,
    });
    const { jobId } = result as { jobId: string };
    expect(kit.queue.batches).toEqual([]);
    expect(kit.scheduledJobs.held.get(jobId)!.flatMap((message) => message.recipients)).toHaveLength(3);
    expect(kit.firings.scheduled).toEqual(new Map([[jobId, new Date(at(3600))]]));
    const job = kit.broadcasts.jobs.get(jobId)!;
    expect(job).toMatchObject({ exposed: true, scheduledAt: at(3600) });
    expect(summarizeJob(job, await kit.broadcasts.getChunkProgress(jobId)).status).toBe('SCHEDULED');
  });

  it('checks the window with the body: too soon → ScheduledAtError naming the rule, nothing recorded', async () => {
    const kit = setup();
    await expect(kit.send(scheduled(2, at(60)))).rejects.toThrow(new ScheduledAtError('scheduledAt must be at least 5 minutes in the future'));
    expect(kit.broadcasts.jobs.size).toBe(0);
    expect(kit.firings.scheduled.size).toBe(0);
  });

  it('still checks every other rule at accept time', async () => {
    const kit = setup();
    await expect(kit.send(broadcastRequest(2, { scheduledAt: at(3600), templateName: 'nope' }))).rejects.toBeInstanceOf(TemplateNotFoundError);
    expect(kit.broadcasts.jobs.size).toBe(0);
    expect(kit.scheduledJobs.held.size).toBe(0);
  });

  it('discards the job when its trigger cannot be registered', async () => {
    const kit = setup();
    kit.firings.failure = new Error('scheduler down');
    await expect(kit.send(scheduled(2, at(3600)))).rejects.toThrow('scheduler down');
    expect(kit.broadcasts.jobs.size).toBe(0);
  });
});

describe('firing', () => {
  async function acceptedJob() {
    const kit = setup();
    const { jobId } = (await kit.send(scheduled(3, at(3600)))) as { jobId: string };
    kit.clock.advanceBy(3600_000);
    return { kit, jobId };
  }

  it('queues the held messages, marks the job fired and takes it out of the due index; a second firing queues nothing', async () => {
    const { kit, jobId } = await acceptedJob();
    expect(await fireScheduledJob(kit.firing, jobId)).toBe('FIRED');
    expect(kit.queue.messages).toEqual(kit.scheduledJobs.held.get(jobId));
    expect(kit.broadcasts.jobs.get(jobId)!.firedAt).toBe(at(3600));
    expect(kit.scheduledJobs.due.has(jobId)).toBe(false);
    expect(summarizeJob(kit.broadcasts.jobs.get(jobId)!, await kit.broadcasts.getChunkProgress(jobId)).status).toBe('QUEUED_FOR_PROCESSING');

    kit.clock.advanceBy(5_000);
    expect(await fireScheduledJob(kit.firing, jobId)).toBe('ALREADY_FIRED');
    expect(kit.queue.batches).toHaveLength(1);
    expect(kit.broadcasts.jobs.get(jobId)!.firedAt).toBe(at(3600));
  });

  it('a firing that died before queueing leaves the job due; the next one queues it', async () => {
    const { kit, jobId } = await acceptedJob();
    kit.scheduledJobs.failHeldReads = true;
    await expect(fireScheduledJob(kit.firing, jobId)).rejects.toThrow('store unavailable');
    expect(kit.scheduledJobs.due.has(jobId)).toBe(true);
    kit.scheduledJobs.failHeldReads = false;
    expect(await fireScheduledJob(kit.firing, jobId)).toBe('FIRED');
    expect(kit.queue.messages.flatMap((message) => message.recipients)).toHaveLength(3);
  });

  it('cancelled before firing: the trigger is removed, a firing queues nothing, and every recipient reads CANCELLED', async () => {
    const { kit, jobId } = await acceptedJob();
    const view = await cancelJob(kit.broadcasts, { organizationId: ORG }, jobId, kit.reading(), { firings: kit.firings });
    expect(view).toMatchObject({ status: 'CANCELLED', summary: { cancelled: 3, pending: 0 } });
    expect(kit.firings.cancelled).toEqual([jobId]);

    expect(await fireScheduledJob(kit.firing, jobId)).toBe('CANCELLED');
    expect(kit.queue.batches).toEqual([]);
    expect(kit.broadcasts.jobs.get(jobId)!.firedAt).toBeUndefined();
    expect(kit.scheduledJobs.due.has(jobId)).toBe(false);
    const rows = await listRecipients(kit.broadcasts, { organizationId: ORG }, jobId, {}, kit.reading());
    expect(rows.recipients.map((row) => row.status)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED']);
  });

  it('a cancel whose trigger removal fails still answers CANCELLED (the firing re-checks)', async () => {
    const { kit, jobId } = await acceptedJob();
    kit.firings.failure = new Error('scheduler down');
    await expect(cancelJob(kit.broadcasts, { organizationId: ORG }, jobId, kit.reading(), { firings: kit.firings })).resolves.toMatchObject({
      status: 'CANCELLED',
    });
    expect(await fireScheduledJob(kit.firing, jobId)).toBe('CANCELLED');
    expect(kit.queue.batches).toEqual([]);
  });

  it('a job of a suspended organization does not fire: cancelled with the reason, nothing queued, out of the due index, every recipient CANCELLED', async () => {
    const { kit, jobId } = await acceptedJob();
    kit.suspended.add(ORG);
    expect(await fireScheduledJob(kit.firing, jobId)).toBe('CANCELLED');
    expect(kit.queue.batches).toEqual([]);
    expect(kit.broadcasts.jobs.get(jobId)).toMatchObject({ cancelledAt: at(3600), cancelReason: 'ORGANIZATION_SUSPENDED' });
    expect(kit.broadcasts.jobs.get(jobId)!.firedAt).toBeUndefined();
    expect(kit.scheduledJobs.due.has(jobId)).toBe(false);
    const rows = await listRecipients(kit.broadcasts, { organizationId: ORG }, jobId, {}, kit.reading());
    expect(rows.recipients.map((row) => row.status)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED']);

    // Resuming does not bring it back: the sweep finds nothing due.
    kit.suspended.delete(ORG);
    expect(await sweepDueJobs(kit.firing, { graceMs: 0, batchSize: 10 })).toEqual({ fired: [], failed: [] });
    expect(await fireScheduledJob(kit.firing, jobId)).toBe('CANCELLED');
    expect(kit.queue.batches).toEqual([]);
  });

  it('an unknown job fires nothing', async () => {
    const kit = setup();
    expect(await fireScheduledJob(kit.firing, 'pub_unknown')).toBe('NOT_FOUND');
    expect(kit.queue.batches).toEqual([]);
  });
});

describe('sweep', () => {
  it('fires the jobs a trigger missed once their time is past the grace, and not the others', async () => {
    const kit = setup();
    const missed = ((await kit.send(scheduled(2, at(600)))) as { jobId: string }).jobId;
    const later = ((await kit.send(broadcastRequest(2, { scheduledAt: at(7200), broadcastName: 'later' }))) as { jobId: string }).jobId;
    const settings = { graceMs: 30_000, batchSize: 10 };

    kit.clock.advanceBy(600_000 + 10_000);
    expect(await sweepDueJobs(kit.firing, settings)).toEqual({ fired: [], failed: [] });

    kit.clock.advanceBy(25_000);
    expect(await sweepDueJobs(kit.firing, settings)).toEqual({ fired: [missed], failed: [] });
    expect(kit.queue.messages.map((message) => message.jobId)).toEqual([missed]);
    expect(kit.scheduledJobs.due.has(later)).toBe(true);
    expect(await sweepDueJobs(kit.firing, settings)).toEqual({ fired: [], failed: [] });
  });

  it('one failing job does not stop the others; it stays due for the next sweep', async () => {
    const kit = setup();
    const first = ((await kit.send(scheduled(1, at(600)))) as { jobId: string }).jobId;
    const second = ((await kit.send(broadcastRequest(1, { scheduledAt: at(601), broadcastName: 'second' }))) as { jobId: string }).jobId;
    kit.clock.advanceBy(3600_000);
    kit.queue.failure = new Error('queue down');
    const result = await sweepDueJobs(kit.firing, { graceMs: 0, batchSize: 10 });
    expect(result.failed.map((failure) => failure.jobId)).toEqual([first, second]);
    kit.queue.failure = undefined;
    expect((await sweepDueJobs(kit.firing, { graceMs: 0, batchSize: 10 })).fired).toEqual([first, second]);
  });
});

describe('broadcast-scheduler invocations', () => {
  it('fires the job of a schedule input, sweeps on any other event, and fails on a malformed job id', async () => {
    const { handleSchedulerEvent } = await import('../../../functions/broadcast-scheduler/handle-scheduler-event');
    const kit = setup();
    const { jobId } = (await kit.send(scheduled(1, at(600)))) as { jobId: string };
    kit.clock.advanceBy(3600_000);
    const dependencies = { ...kit.firing, sweep: { graceMs: 0, batchSize: 10 } };
    expect(await handleSchedulerEvent(dependencies, { source: 'aws.events', 'detail-type': 'Scheduled Event' })).toEqual({ swept: [jobId], failed: [] });
    expect(await handleSchedulerEvent(dependencies, { jobId })).toEqual({ jobId, outcome: 'ALREADY_FIRED' });
    await expect(handleSchedulerEvent(dependencies, { jobId: 'not a job' })).rejects.toThrow('jobId must be a job id');
    expect(kit.queue.batches).toHaveLength(1);
  });

  it('a job sent at once is no scheduled job: a firing names it unknown and marks nothing', async () => {
    const kit = setup();
    const result = await kit.send(broadcastRequest(2));
    const jobId = (result as { jobId: string }).jobId;
    expect(await fireScheduledJob(kit.firing, jobId)).toBe('NOT_FOUND');
    expect(kit.broadcasts.jobs.get(jobId)!.firedAt).toBeUndefined();
  });
});
