/**
 * The one place the scale simulation decides which queue a job's chunk messages go to. It follows
 * the rule of issue 40 item 2 (shared/broadcast/outbound-lanes.ts's `laneOfJob` on its branch): a
 * job of exactly one recipient that is not a campaign's goes to the single-message queue, every
 * other job to the chunk queue. When that module is merged, this file re-exports it instead, so the
 * simulation routes by the real rule. Decided per job, not per message: a chunk's rest of one
 * recipient (re-queued by the worker) stays in the chunk queue, as on the platform.
 */
import type { BroadcastJob } from '../../../shared/broadcast/broadcast-job';

export type OutboundLane = 'single' | 'chunks';

/**
 * The lane of `job`'s messages.
 *
 * @example
 * laneOfJob({ ...job, totalRecipients: 1 }); // 'single' (unless it is a campaign's)
 */
export function laneOfJob(job: BroadcastJob): OutboundLane {
  const campaign = job.kind === 'template' && job.campaignId !== undefined;
  return job.totalRecipients === 1 && !campaign ? 'single' : 'chunks';
}
