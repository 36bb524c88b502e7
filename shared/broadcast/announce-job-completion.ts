/**
 * `job.completed` (docs/CUSTOMER-WEBHOOKS.md "Events"): published by the chunk worker that settles a
 * job's last chunk. Every chunk's settling checks, so two workers finishing together may both
 * publish: the event id is the job's (customerEventId), so receivers see one event. The summary is
 * the sends' final account; delivery counts keep changing afterwards (message.status events).
 *
 * A campaign's job (open-ended: docs/CAMPAIGNS.md) never reads finished while its expander may still
 * append to it, so the last of the expander's close and the last chunk's settling is the one that
 * finds it finished: both check, neither announces early, and the shared event id makes two one.
 * It also announces `campaign.completed`, under the campaign's id.
 */
import { newCustomerEvent } from '../customer-events/event-envelope';
import type { CustomerEvent } from '../customer-events/ports';
import { DEFAULT_UNCONFIRMED_AFTER_MS } from '../delivery/recipient-status';
import { TERMINAL_STATUSES, summarizeJob } from './broadcast-job';
import type { ChunkProgressStore, Clock, JobStore } from './ports';

export interface JobCompletionPorts {
  broadcasts: Pick<JobStore, 'getJob'> & Pick<ChunkProgressStore, 'getJobProgress'>;
  events: { publish(organizationId: string, event: CustomerEvent): Promise<void> };
  clock: Clock;
}

/** True when the job is finished and its event was published. */
export async function announceJobCompletion(ports: JobCompletionPorts, jobId: string): Promise<boolean> {
  const job = await ports.broadcasts.getJob(jobId);
  if (!job) return false;
  const progress = await ports.broadcasts.getJobProgress(jobId);
  const now = ports.clock.now();
  const { status, summary } = summarizeJob(job, progress.chunks, { codes: progress.tally, now, unconfirmedAfterMs: DEFAULT_UNCONFIRMED_AFTER_MS });
  if (!TERMINAL_STATUSES.has(status)) return false;
  if (job.kind === 'template' && job.campaignId !== undefined) {
    const data = { campaignId: job.campaignId, jobId, status, fromPhoneNumber: job.fromPhoneNumber, totalRecipients: job.totalRecipients, summary };
    await ports.events.publish(job.organizationId, newCustomerEvent({ type: 'campaign.completed', sourceKey: job.campaignId, createdAt: now, data }));
  }
  await ports.events.publish(
    job.organizationId,
    newCustomerEvent({
      type: 'job.completed',
      sourceKey: jobId,
      createdAt: now,
      data: {
        jobId,
        kind: job.kind,
        status,
        fromPhoneNumber: job.fromPhoneNumber,
        broadcastName: 'broadcastName' in job ? (job.broadcastName ?? null) : null,
        totalRecipients: job.totalRecipients,
        summary,
      },
    }),
  );
  return true;
}
