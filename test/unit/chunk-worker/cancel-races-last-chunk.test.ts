/**
 * A cancel racing the job's last chunk (issue 23 item 15): the final state says what happened. A
 * cancel that withheld nobody leaves the job in the state its sends earned (COMPLETED here), notes
 * `cancelRequestedAt`, agrees with the job.completed event, and a repeat says the job is finished;
 * a cancel that withheld someone still reads CANCELLED.
 */
import { cancelJob } from '../../../shared/broadcast/cancel-job';
import { JobAlreadyFinishedError } from '../../../shared/broadcast/errors';
import { getJobStatus } from '../../../shared/broadcast/get-job-status';
import type { ChunkProgressStore, JobControlStore, JobStore } from '../../../shared/broadcast/ports';
import type { CustomerEvent } from '../../../shared/customer-events/ports';
import { ORG, chunkMessage } from '../../support/broadcast-fakes';
import { setup, statusCounts, type ChunkWorkerKit } from './chunk-worker-kit';

const caller = { organizationId: ORG };

function raceKit(size: number) {
  const kit = setup({ settings: { maxInFlight: 4 } });
  const message = chunkMessage(size);
  const published: CustomerEvent[] = [];
  kit.dependencies.events = { publish: async (_organizationId, event) => void published.push(event) };
  const reading = () => ({ now: kit.time.now(), unconfirmedAfterMs: 24 * 3_600_000 });
  const cancel = (broadcasts: JobStore & JobControlStore & ChunkProgressStore = kit.broadcasts) => cancelJob(broadcasts, caller, message.jobId, reading());
  const status = () => getJobStatus(kit.broadcasts, caller, message.jobId, reading());
  const completedStatuses = () => published.filter((event) => event.type === 'job.completed').map((event) => (event.data as { status: string }).status);
  return { kit, message, cancel, status, completedStatuses };
}

/** The stores, with `cancelJob` (the cancel's write) running `before` first: the cancel's read happened, its write waits. */
function writeDelayedUntil(kit: ChunkWorkerKit, before: () => Promise<unknown>): JobStore & JobControlStore & ChunkProgressStore {
  return new Proxy(kit.broadcasts, {
    get(target, property, receiver) {
      if (property === 'cancelJob') return async (jobId: string, now: Date) => (await before(), target.cancelJob(jobId, now));
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('a cancel racing the last chunk', () => {
  it('checked before the last chunk settled, written after: 200 for the cancel, the job reads COMPLETED with cancelRequestedAt, as job.completed said', async () => {
    const { kit, message, cancel, status, completedStatuses } = raceKit(5);
    await kit.createJob(message);
    await kit.broadcasts.markChunkStarted(message.jobId, 0, kit.time.now());

    // The cancel reads a running job (nothing settled yet); the whole chunk is sent and settled before its write lands.
    const answer = await cancel(writeDelayedUntil(kit, () => kit.run(message)));

    expect(answer).toMatchObject({ status: 'CANCELLED', summary: { pending: 5, cancelled: 0 } });
    expect(kit.upstream.sends).toHaveLength(5);
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: 5 });
    const final = await status();
    expect(final).toMatchObject({ status: 'COMPLETED', cancelRequestedAt: expect.any(String), summary: { sent: 5, cancelled: 0, pending: 0, chunksDone: 1 } });
    expect(completedStatuses()).toEqual(['COMPLETED']);
    // A repeat says the job is finished rather than contradict its final state.
    await expect(cancel()).rejects.toThrow(JobAlreadyFinishedError);
  });

  it('written while the last recipients are in flight (all claimed): nobody withheld, so COMPLETED with cancelRequestedAt, and job.completed says COMPLETED', async () => {
    const { kit, message, cancel, status, completedStatuses } = raceKit(5);
    await kit.createJob(message);
    let answer: Awaited<ReturnType<typeof cancel>> | undefined;
    // The last recipient's send: every other one is claimed (and most sent) by now.
    kit.upstream.onSend = async (send) => {
      if (send.to === message.recipients.at(-1)!.to) answer = await cancel();
    };

    const report = await kit.run(message);

    expect(answer).toMatchObject({ status: 'CANCELLED', summary: { cancelled: 0 } });
    expect(report).toMatchObject({ sent: 5, chunkDone: true });
    expect(report.cancelled ?? 0).toBe(0);
    const final = await status();
    expect(final).toMatchObject({ status: 'COMPLETED', cancelRequestedAt: expect.any(String), summary: { sent: 5, cancelled: 0, pending: 0 } });
    expect(completedStatuses()).toEqual(['COMPLETED']);
  });

  it('in time to withhold someone: CANCELLED, without cancelRequestedAt (the status says it), and job.completed says CANCELLED', async () => {
    const { kit, message, cancel, status, completedStatuses } = raceKit(40);
    await kit.createJob(message);
    kit.upstream.onSend = async () => {
      if (kit.upstream.sends.length === 3) await cancel();
    };

    const report = await kit.run(message);

    expect(report.cancelled).toBeGreaterThan(0);
    const final = await status();
    expect(final.status).toBe('CANCELLED');
    expect(final).not.toHaveProperty('cancelRequestedAt');
    // (This fake keeps no tally codes, so the summary cannot count the cancelled: the ledger shows them.)
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toMatchObject({ CANCELLED: report.cancelled });
    expect(completedStatuses()).toEqual(['CANCELLED']);
    // A repeat answers as before: the same CANCELLED view.
    await expect(cancel()).resolves.toMatchObject({ status: 'CANCELLED' });
  });
});
