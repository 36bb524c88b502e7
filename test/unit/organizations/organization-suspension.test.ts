/**
 * The kill switch with fakes (shared/organizations/organization-suspension.ts): the organization's
 * record, its unfinished jobs cancelled with the reason in two passes, finished and already
 * cancelled ones left alone, other organizations untouched, resume; and the admin commands' flags.
 */
import type { BroadcastJob } from '../../../shared/broadcast/broadcast-job';
import { runOrganizationAdminCommand } from '../../../shared/organizations/organization-admin-commands';
import { resumeOrganization, suspendOrganization, type OrganizationSuspensionPorts } from '../../../shared/organizations/organization-suspension';
import { InvalidTenancyInputError, OrganizationNotFoundError } from '../../../shared/tenancy/errors';
import { InMemoryBroadcastRepository } from '../../support/broadcast-fakes';
import { job } from '../../support/contracts/broadcast-contract-fixtures';
import { RecordingFiringScheduler } from '../../support/scheduled-job-fakes';
import { createTenancyTestKit } from '../../support/tenancy-test-ports';

async function world() {
  const tenancy = createTenancyTestKit('2026-03-01T09:00:00.000Z');
  const { organizationId } = await tenancy.services.admin.createOrganization({ name: 'Acme', plan: 'enterprise' });
  const { organizationId: otherId } = await tenancy.services.admin.createOrganization({ name: 'Other', plan: 'enterprise' });
  const broadcasts = new InMemoryBroadcastRepository();
  const firings = new RecordingFiringScheduler();
  const waits: number[] = [];
  /** Runs during the wait between the passes (a job recorded in the instant of the suspension). */
  let duringWait: () => Promise<void> = async () => undefined;
  const ports: OrganizationSuspensionPorts = {
    tenancy: tenancy.repository,
    broadcasts,
    scheduling: { firings },
    clock: tenancy.clock,
    unconfirmedAfterMs: 86_400_000,
    sleep: async (milliseconds) => {
      waits.push(milliseconds);
      await duringWait();
    },
  };
  let sequence = 0;
  const addJob = async (organization: string, overrides: Partial<BroadcastJob> = {}) => {
    sequence += 1;
    const created: BroadcastJob = {
      ...job(`pub_job${sequence}`, 2500, 1000),
      organizationId: organization,
      createdAt: `2026-03-01T08:00:0${sequence}.000Z`,
      ...overrides,
    } as BroadcastJob;
    await broadcasts.createJob(created, [1000, 1000, 500]);
    return created.jobId;
  };
  return { tenancy, organizationId, otherId, broadcasts, firings, ports, waits, addJob, setDuringWait: (run: () => Promise<void>) => (duringWait = run) };
}

describe('suspendOrganization', () => {
  it('suspends the record and cancels every unfinished job with the reason, in two passes; finished, already cancelled and other organizations’ jobs are left alone', async () => {
    const w = await world();
    const running = await w.addJob(w.organizationId);
    const scheduled = await w.addJob(w.organizationId, { scheduledAt: '2026-03-02T09:00:00.000Z' });
    const finished = await w.addJob(w.organizationId);
    for (const [chunkIndex, count] of [
      [0, 1000],
      [1, 1000],
      [2, 500],
    ] as const)
      Object.assign(w.broadcasts.chunkRecord(finished, chunkIndex), { recipientCount: count, sent: count, doneAt: '2026-03-01T08:30:00.000Z' });
    const cancelledByBusiness = await w.addJob(w.organizationId);
    await w.broadcasts.cancelJob(cancelledByBusiness, new Date('2026-03-01T08:40:00.000Z'));
    const foreign = await w.addJob(w.otherId);
    let late = '';
    w.setDuringWait(async () => {
      late = await w.addJob(w.organizationId);
    });

    const report = await suspendOrganization(w.ports, { organizationId: w.organizationId, reason: 'Fraud report 4411', settleMs: 30_000 });

    expect(report.organization).toMatchObject({ status: 'suspended', suspendedAt: '2026-03-01T09:00:00.000Z', suspensionReason: 'Fraud report 4411' });
    expect(w.waits).toEqual([30_000]);
    expect(report.cancelledJobs.map((view) => view.jobId).sort()).toEqual([running, scheduled, late].sort());
    expect(report).toMatchObject({ alreadyCancelledJobs: 1, finishedJobs: 1 });
    for (const jobId of [running, scheduled, late]) {
      expect(w.broadcasts.jobs.get(jobId)).toMatchObject({ cancelledAt: '2026-03-01T09:00:00.000Z', cancelReason: 'ORGANIZATION_SUSPENDED' });
    }
    // The scheduled one never queued anything: all its recipients are counted as cancelled at once.
    expect(report.cancelledJobs.find((view) => view.jobId === scheduled)).toMatchObject({ status: 'CANCELLED', summary: { cancelled: 2500, pending: 0 } });
    expect(w.firings.cancelled).toEqual([scheduled]);
    expect(w.broadcasts.jobs.get(cancelledByBusiness)).toMatchObject({ cancelledAt: '2026-03-01T08:40:00.000Z' });
    expect(w.broadcasts.jobs.get(cancelledByBusiness)!.cancelReason).toBeUndefined();
    expect(w.broadcasts.jobs.get(finished)!.cancelledAt).toBeUndefined();
    expect(w.broadcasts.jobs.get(foreign)!.cancelledAt).toBeUndefined();
  });

  it('again on a suspended organization: the first suspension time stays, the reason is replaced, its jobs are passed over again', async () => {
    const w = await world();
    await suspendOrganization(w.ports, { organizationId: w.organizationId, reason: 'first', settleMs: 0 });
    expect(w.waits).toEqual([]);
    w.tenancy.clock.advanceBy(60_000);
    const recordedSince = await w.addJob(w.organizationId);
    const again = await suspendOrganization(w.ports, { organizationId: w.organizationId, reason: 'second', settleMs: 0 });
    expect(again.organization).toMatchObject({ suspendedAt: '2026-03-01T09:00:00.000Z', suspensionReason: 'second' });
    expect(again.cancelledJobs.map((view) => view.jobId)).toEqual([recordedSince]);
  });

  it('ordered with resume: a job accepted after resume-organization survives the earlier suspension’s second pass, and the report says so', async () => {
    const w = await world();
    const running = await w.addJob(w.organizationId);
    let afterResume = '';
    w.setDuringWait(async () => {
      w.tenancy.clock.advanceBy(10_000);
      await resumeOrganization(w.ports, { organizationId: w.organizationId });
      w.tenancy.clock.advanceBy(1_000);
      afterResume = await w.addJob(w.organizationId, { createdAt: w.tenancy.clock.now().toISOString() });
    });

    const report = await suspendOrganization(w.ports, { organizationId: w.organizationId, reason: 'Fraud report 4411', settleMs: 30_000 });

    expect(w.broadcasts.jobs.get(afterResume)!.cancelledAt).toBeUndefined();
    expect(w.broadcasts.jobs.get(running)).toMatchObject({ cancelReason: 'ORGANIZATION_SUSPENDED' });
    expect(report.cancelledJobs.map((view) => view.jobId)).toEqual([running]);
    expect(report.organization).toMatchObject({ status: 'active', resumedAt: '2026-03-01T09:00:10.000Z' });
    expect(report.passes).toEqual([
      { pass: 1, checkedAt: '2026-03-01T09:00:00.000Z', cancelled: 1, acceptedLater: 0 },
      {
        pass: 2,
        checkedAt: '2026-03-01T09:00:11.000Z',
        skipped: { because: 'resumed', resumedAt: '2026-03-01T09:00:10.000Z' },
        cancelled: 0,
        acceptedLater: 0,
      },
    ]);
    expect(report.outcome).toBe(
      'Suspended at 2026-03-01T09:00:00.000Z. Pass 1 cancelled 1 job. Pass 2 skipped: the organization was resumed at 2026-03-01T09:00:10.000Z. The organization is active now.',
    );
  });

  it('resumed and suspended again meanwhile: the earlier suspension’s second pass leaves the jobs accepted in between to the new suspension', async () => {
    const w = await world();
    let between = '';
    w.setDuringWait(async () => {
      w.tenancy.clock.advanceBy(10_000);
      await resumeOrganization(w.ports, { organizationId: w.organizationId });
      between = await w.addJob(w.organizationId, { createdAt: w.tenancy.clock.now().toISOString() });
      w.tenancy.clock.advanceBy(5_000);
      await w.tenancy.repository.setOrganizationSuspension(w.organizationId, {
        suspension: { suspendedAt: w.tenancy.clock.now().toISOString(), reason: 'again' },
        updatedAt: w.tenancy.clock.now().toISOString(),
      });
    });

    const report = await suspendOrganization(w.ports, { organizationId: w.organizationId, reason: 'first', settleMs: 30_000 });

    expect(w.broadcasts.jobs.get(between)!.cancelledAt).toBeUndefined();
    expect(report.passes[1]).toMatchObject({ pass: 2, skipped: { because: 'suspended-again', suspendedAt: '2026-03-01T09:00:15.000Z' }, cancelled: 0 });
    expect(report.outcome).toContain('Pass 2 skipped: the organization was resumed and suspended again at 2026-03-01T09:00:15.000Z');
  });

  it('still suspended: the second pass cancels what escaped the first but leaves a job accepted after its check (a resume racing the listing)', async () => {
    const w = await world();
    let escaped = '';
    let later = '';
    w.setDuringWait(async () => {
      w.tenancy.clock.advanceBy(30_000);
      escaped = await w.addJob(w.organizationId, { createdAt: '2026-03-01T09:00:00.500Z' });
      later = await w.addJob(w.organizationId, { createdAt: '2026-03-01T09:00:31.000Z' });
    });

    const report = await suspendOrganization(w.ports, { organizationId: w.organizationId, reason: 'x', settleMs: 30_000 });

    expect(report.cancelledJobs.map((view) => view.jobId)).toEqual([escaped]);
    expect(w.broadcasts.jobs.get(later)!.cancelledAt).toBeUndefined();
    expect(report.passes[1]).toEqual({ pass: 2, checkedAt: '2026-03-01T09:00:30.000Z', cancelled: 1, acceptedLater: 1 });
    expect(report.outcome).toBe(
      'Suspended at 2026-03-01T09:00:00.000Z. Pass 1 cancelled 0 jobs. Pass 2 cancelled 1 job and left 1 job accepted after 2026-03-01T09:00:30.000Z. The organization is suspended now.',
    );
  });

  it('refuses an unknown organization and a missing reason, and cancels nothing then', async () => {
    const w = await world();
    const running = await w.addJob(w.organizationId);
    await expect(suspendOrganization(w.ports, { organizationId: 'org_missing', reason: 'x', settleMs: 0 })).rejects.toBeInstanceOf(OrganizationNotFoundError);
    await expect(suspendOrganization(w.ports, { organizationId: w.organizationId, reason: '  ', settleMs: 0 })).rejects.toBeInstanceOf(
      InvalidTenancyInputError,
    );
    expect(w.broadcasts.jobs.get(running)!.cancelledAt).toBeUndefined();
    expect((await w.tenancy.repository.getOrganization(w.organizationId))!.status).toBe('active');
  });
});

describe('resumeOrganization', () => {
  it('lifts the suspension; the jobs it cancelled stay cancelled', async () => {
    const w = await world();
    const running = await w.addJob(w.organizationId);
    await suspendOrganization(w.ports, { organizationId: w.organizationId, reason: 'unpaid', settleMs: 0 });
    const resumed = await resumeOrganization(w.ports, { organizationId: w.organizationId });
    expect(resumed).toMatchObject({ status: 'active' });
    expect(resumed).not.toHaveProperty('suspendedAt');
    expect(w.broadcasts.jobs.get(running)).toMatchObject({ cancelReason: 'ORGANIZATION_SUSPENDED' });
    await expect(resumeOrganization(w.ports, { organizationId: 'org_missing' })).rejects.toBeInstanceOf(OrganizationNotFoundError);
  });
});

describe('the admin commands', () => {
  it('take --org, --reason and --settle-seconds (default 30, 0 for one pass), and refuse unknown flags', async () => {
    const w = await world();
    await expect(runOrganizationAdminCommand(w.ports, 'suspend-organization', { org: w.organizationId })).rejects.toThrow('--reason is required');
    await expect(runOrganizationAdminCommand(w.ports, 'suspend-organization', { org: w.organizationId, reason: 'x', 'settle-seconds': '301' })).rejects.toThrow(
      '--settle-seconds must be a whole number from 0 to 300',
    );
    await expect(runOrganizationAdminCommand(w.ports, 'suspend-organization', { org: w.organizationId, reason: 'x', force: '' })).rejects.toThrow(
      'Unknown flag(s) for suspend-organization: --force',
    );
    await runOrganizationAdminCommand(w.ports, 'suspend-organization', { org: w.organizationId, reason: 'x' });
    expect(w.waits).toEqual([30_000]);
    await runOrganizationAdminCommand(w.ports, 'suspend-organization', { org: w.organizationId, reason: 'x', 'settle-seconds': '0' });
    expect(w.waits).toEqual([30_000]);
    expect(await runOrganizationAdminCommand(w.ports, 'resume-organization', { org: w.organizationId })).toMatchObject({ status: 'active' });
  });
});
