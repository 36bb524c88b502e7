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
 *   eventually consistent. Ordered with resume: the pass reads the organization again and runs only
 *   while this same suspension holds (status `suspended`, the same `suspendedAt`), and cancels only
 *   jobs accepted by the time of that read; a resume (or a resume and a new suspension) meanwhile
 *   skips it, so a job accepted after `resume-organization` is never cancelled by it. The report
 *   says what each pass did.
 *
 * Resuming lifts the 403; cancelled jobs stay cancelled (the business sends again what it still wants).
 */
import { cancelJobsOfOrganization, ORGANIZATION_SUSPENDED_REASON } from '../broadcast/cancel-job';
import { getJobStatus, type JobStatusView } from '../broadcast/get-job-status';
import type { ChunkProgressStore, JobControlStore, JobFiringScheduler, JobStore } from '../broadcast/ports';
import type { Clock } from '../ports/clock';
import { requireOrganization, resumeOrganizationRecord, suspendOrganizationRecord } from '../tenancy/organization-use-cases';
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

/** Why a pass did not run: the suspension it belonged to had ended when it read the organization. */
export type SkippedPass = { because: 'resumed'; resumedAt?: string } | { because: 'suspended-again'; suspendedAt: string };

/** What one pass did. */
export interface SuspensionPass {
  pass: 1 | 2;
  /** When the pass read the organization; it cancels only jobs accepted by then. */
  checkedAt: string;
  /** Present when the pass cancelled nothing because the organization was no longer under this suspension. */
  skipped?: SkippedPass;
  /** Jobs this pass cancelled. */
  cancelled: number;
  /** Jobs accepted after `checkedAt` (after a resume, say): left as they are. */
  acceptedLater: number;
}

export interface SuspensionReport {
  /** The organization as read after the passes (`active` when it was resumed meanwhile). */
  organization: Organization;
  /** This suspension's time (the first one's, on a repeat). */
  suspendedAt: string;
  /** Jobs this suspension cancelled (both passes). */
  cancelledJobs: SuspendedJob[];
  /** Jobs cancelled before (by the business, or an earlier suspend-organization): left as they were. */
  alreadyCancelledJobs: number;
  /** Jobs already finished: nothing to stop. */
  finishedJobs: number;
  /** Each pass in order (one when `settleMs` is 0). */
  passes: SuspensionPass[];
  /** The same in one sentence, for the operator. */
  outcome: string;
}

type PassResult = { pass: SuspensionPass; cancelledIds: string[]; alreadyCancelled: number; finished: number };

/**
 * Suspends the organization and cancels its unfinished jobs in two passes `settleMs` apart (one
 * when 0). The second pass runs only while this suspension still holds and cancels only jobs
 * accepted by its check (module comment). Running it again on a suspended organization passes over
 * its jobs again and keeps the first suspension time. Throws OrganizationNotFoundError,
 * InvalidTenancyInputError (no reason).
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
  const suspended = await suspendOrganizationRecord(ports, input);
  const suspendedAt = suspended.suspendedAt!;
  const first = await cancelPass(ports, organizationId, 1, suspendedAt, suspended);
  const passes = [first];
  if (input.settleMs > 0) {
    await ports.sleep(input.settleMs);
    passes.push(await cancelPass(ports, organizationId, 2, suspendedAt, await requireOrganization(ports.tenancy, organizationId)));
  }
  // Read again: after the wait the workers have stopped and the summaries count who was never sent.
  const cancelledJobs: SuspendedJob[] = [];
  for (const jobId of passes.flatMap((result) => result.cancelledIds)) {
    const { status, totalRecipients, summary } = await getJobStatus(ports.broadcasts, { organizationId }, jobId, statusReading(ports));
    cancelledJobs.push({ jobId, status, totalRecipients, summary });
  }
  const organization = await requireOrganization(ports.tenancy, organizationId);
  const report = {
    organization,
    suspendedAt,
    cancelledJobs,
    alreadyCancelledJobs: first.alreadyCancelled,
    finishedJobs: first.finished,
    passes: passes.map((result) => result.pass),
  };
  return { ...report, outcome: describeOutcome(report) };
}

const statusReading = (ports: OrganizationSuspensionPorts) => ({ now: ports.clock.now(), unconfirmedAfterMs: ports.unconfirmedAfterMs });

/** One pass: cancels the jobs accepted by now, if the organization (as just read) is still under this suspension. */
async function cancelPass(
  ports: OrganizationSuspensionPorts,
  organizationId: string,
  pass: 1 | 2,
  suspendedAt: string,
  current: Organization,
): Promise<PassResult> {
  const checkedAt = ports.clock.now();
  const skipped = endedSuspension(current, suspendedAt);
  if (skipped)
    return { pass: { pass, checkedAt: checkedAt.toISOString(), skipped, cancelled: 0, acceptedLater: 0 }, cancelledIds: [], alreadyCancelled: 0, finished: 0 };
  const result = await cancelJobsOfOrganization(
    ports.broadcasts,
    organizationId,
    statusReading(ports),
    ORGANIZATION_SUSPENDED_REASON,
    ports.scheduling,
    checkedAt,
  );
  return {
    pass: { pass, checkedAt: checkedAt.toISOString(), cancelled: result.cancelled.length, acceptedLater: result.acceptedLater },
    cancelledIds: result.cancelled.map((view) => view.jobId),
    alreadyCancelled: result.alreadyCancelled,
    finished: result.finished,
  };
}

/** Undefined while this suspension holds; else why it ended (a resume clears `suspendedAt`, a new suspension sets another). */
function endedSuspension(organization: Organization, suspendedAt: string): SkippedPass | undefined {
  if (organization.status !== 'suspended') return { because: 'resumed', ...(organization.resumedAt ? { resumedAt: organization.resumedAt } : {}) };
  if (organization.suspendedAt !== suspendedAt) return { because: 'suspended-again', suspendedAt: organization.suspendedAt! };
  return undefined;
}

/** e.g. "Suspended at T. Pass 1 cancelled 2 jobs. Pass 2 skipped: the organization was resumed at T2. The organization is active now." */
function describeOutcome(report: Omit<SuspensionReport, 'outcome'>): string {
  const jobs = (count: number) => `${count} job${count === 1 ? '' : 's'}`;
  const sentences = [`Suspended at ${report.suspendedAt}.`];
  for (const pass of report.passes) {
    if (pass.skipped?.because === 'resumed')
      sentences.push(`Pass ${pass.pass} skipped: the organization was resumed${pass.skipped.resumedAt ? ` at ${pass.skipped.resumedAt}` : ''}.`);
    else if (pass.skipped)
      sentences.push(
        `Pass ${pass.pass} skipped: the organization was resumed and suspended again at ${pass.skipped.suspendedAt} (that suspension cancels its own jobs).`,
      );
    else
      sentences.push(
        `Pass ${pass.pass} cancelled ${jobs(pass.cancelled)}${pass.acceptedLater > 0 ? ` and left ${jobs(pass.acceptedLater)} accepted after ${pass.checkedAt}` : ''}.`,
      );
  }
  sentences.push(`The organization is ${report.organization.status} now.`);
  return sentences.join(' ');
}

/**
 * Lifts the suspension: the organization's credentials work again at once (in the /upstream
 * wrapper's other containers within its cache's time to live). Jobs the suspension cancelled stay
 * cancelled. Throws OrganizationNotFoundError.
 *
 * @example
 * const organization = await resumeOrganization(ports, { organizationId: 'org_1' });
 */
export async function resumeOrganization(
  ports: Pick<OrganizationSuspensionPorts, 'tenancy' | 'clock'>,
  input: { organizationId: string },
): Promise<Organization> {
  return resumeOrganizationRecord(ports, input);
}
