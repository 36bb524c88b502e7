/**
 * The kill switch (docs/OPERATIONS.md "Suspending an organization"): an operator suspends an
 * organization, and
 *
 * - every credential of it (broadcast keys, minted keys included, organization tokens, /upstream
 *   tokens, v1 keys) is refused with 403 ORGANIZATION_SUSPENDED on every surface: authentication
 *   checks the organization's status on every request (shared/tenancy/credential-use-cases.ts);
 * - every job of it that is not finished is cancelled through the cancel use case, with the reason
 *   `ORGANIZATION_SUSPENDED`: running chunk workers stop at their next job-control read and account
 *   every recipient not yet sent as CANCELLED (listed so, and counted in the summary's `cancelled`),
 *   scheduled jobs never fire (and the scheduler cancels one that escaped, fire-scheduled-job.ts);
 * - a second pass after `settleMs` cancels jobs that escaped the first: a request authenticated just
 *   before the suspension may record its job after the first listing, and the job index is
 *   eventually consistent.
 *
 * Resuming lifts the 403; cancelled jobs stay cancelled (the business sends again what it still wants).
 */
import { cancelJobsOfOrganization, ORGANIZATION_SUSPENDED_REASON } from '../broadcast/cancel-job';
import { getJobStatus, type JobStatusView } from '../broadcast/get-job-status';
import type { ChunkProgressStore, JobControlStore, JobFiringScheduler, JobStore } from '../broadcast/ports';
import type { Clock } from '../ports/clock';
import { resumeOrganizationRecord, suspendOrganizationRecord } from '../tenancy/organization-use-cases';
import type { Organization } from '../tenancy/tenancy-entities';
import type { OrganizationStore } from '../tenancy/tenancy-stores';

export interface OrganizationSuspensionPorts {
  tenancy: OrganizationStore;
  broadcasts: JobStore & JobControlStore & ChunkProgressStore;
  /** A scheduled job's trigger is removed with it (best effort: the firing finds the job cancelled anyway). */
  scheduling?: { readonly firings: JobFiringScheduler };
  clock: Clock;
  /** An unknown outcome with no event for this long reads UNCONFIRMED in the summaries. */
  unconfirmedAfterMs: number;
  /** Waits between the two passes (a port, so tests need not wait). */
  sleep(milliseconds: number): Promise<void>;
}

/** A job the suspension cancelled, as it reads after the passes (`summary.cancelled`: never sent). */
export type SuspendedJob = Pick<JobStatusView, 'jobId' | 'status' | 'totalRecipients' | 'summary'>;

export interface SuspensionReport {
  organization: Organization;
  /** Jobs this suspension cancelled (both passes). */
  cancelledJobs: SuspendedJob[];
  /** Jobs cancelled before (by the business, or an earlier suspend-organization): left as they were. */
  alreadyCancelledJobs: number;
  /** Jobs already finished: nothing to stop. */
  finishedJobs: number;
}

/**
 * Suspends the organization and cancels its unfinished jobs in two passes `settleMs` apart (one
 * when 0). Running it again on a suspended organization passes over its jobs again and keeps the
 * first suspension time. Throws OrganizationNotFoundError, InvalidTenancyInputError (no reason).
 *
 * @example
 * const report = await suspendOrganization(ports, { organizationId: 'org_1', reason: 'Fraud report 4411', settleMs: 30_000 });
 */
export async function suspendOrganization(
  ports: OrganizationSuspensionPorts,
  input: { organizationId: string; reason: string; settleMs: number },
): Promise<SuspensionReport> {
  const { organizationId } = input;
  // The record first: from here on no credential of the organization passes authentication.
  const organization = await suspendOrganizationRecord(ports, input);
  const reading = () => ({ now: ports.clock.now(), unconfirmedAfterMs: ports.unconfirmedAfterMs });
  const cancelAll = () => cancelJobsOfOrganization(ports.broadcasts, organizationId, reading(), ORGANIZATION_SUSPENDED_REASON, ports.scheduling);
  const first = await cancelAll();
  let cancelledIds = first.cancelled.map((view) => view.jobId);
  if (input.settleMs > 0) {
    await ports.sleep(input.settleMs);
    const second = await cancelAll();
    cancelledIds = [...cancelledIds, ...second.cancelled.map((view) => view.jobId)];
  }
  // Read again: after the wait the workers have stopped and the summaries count who was never sent.
  const cancelledJobs: SuspendedJob[] = [];
  for (const jobId of cancelledIds) {
    const { status, totalRecipients, summary } = await getJobStatus(ports.broadcasts, { organizationId }, jobId, reading());
    cancelledJobs.push({ jobId, status, totalRecipients, summary });
  }
  return { organization, cancelledJobs, alreadyCancelledJobs: first.alreadyCancelled, finishedJobs: first.finished };
}

/**
 * Lifts the suspension: the organization's credentials work again at once (in the /upstream
 * wrapper's other containers within its cache's time to live). Jobs the suspension cancelled stay
 * cancelled. Throws OrganizationNotFoundError.
 *
 * @example
 * const organization = await resumeOrganization(ports, { organizationId: 'org_1' });
 */
export async function resumeOrganization(ports: Pick<OrganizationSuspensionPorts, 'tenancy' | 'clock'>, input: { organizationId: string }): Promise<Organization> {
  return resumeOrganizationRecord(ports, input);
}
