/**
 * The expander's checkpoint moves (docs/CAMPAIGNS.md "How a campaign runs"): each one a conditional
 * write over the version read (saveExpansion), so of two deliveries of the same campaign only one
 * advances and the other stops. Also the two ends: the first start (campaign.started) and the close
 * of the job with its totals (job.completed and campaign.completed once its chunks are done).
 */
import { announceJobCompletion, type JobCompletionPorts } from '../broadcast/announce-job-completion';
import { CHUNK_SIZE } from '../broadcast/broadcast-job';
import type { JobStore } from '../broadcast/ports';
import { newCustomerEvent } from '../customer-events/event-envelope';
import type { Campaign, ExpansionCounts, ExpansionProgress } from './campaign';
import type { CampaignStore } from './ports';

export interface CheckpointPorts {
  campaigns: Pick<CampaignStore, 'saveExpansion'>;
}

/** A launched campaign as the expander works on it. */
export type LaunchedCampaign = Campaign & Required<Pick<Campaign, 'jobId' | 'expansion' | 'launchedAt'>>;

/**
 * Writes `next` over `current` (its version + 1); the checkpoint now, or undefined when another
 * delivery advanced it first (this one then stops).
 *
 * @example
 * const saved = await advance(ports, campaign, { ...campaign.expansion, cursor: 'next' });
 */
export async function advance(
  ports: CheckpointPorts,
  campaign: LaunchedCampaign,
  next: Omit<ExpansionProgress, 'version'>,
): Promise<ExpansionProgress | undefined> {
  const current = campaign.expansion;
  const written = { ...next, version: current.version + 1 };
  const saved = await ports.campaigns.saveExpansion(campaign.organizationId, campaign.campaignId, written, current.version);
  if (!saved) return undefined;
  campaign.expansion = written;
  return written;
}

/** The people the job lists: every person queued, held out or skipped with a reason (duplicates, excluded and filtered out are only counted). */
export const listedCount = (counts: ExpansionCounts): number => counts.sendable + counts.heldOut + counts.optedOut + counts.missingAttribute + counts.invalid;

export interface ClosePorts extends CheckpointPorts {
  broadcasts: Pick<JobStore, 'closeExpansion'> & JobCompletionPorts['broadcasts'];
  events: JobCompletionPorts['events'];
  clock: JobCompletionPorts['clock'];
}

/**
 * Closes the campaign's job with its totals and marks the expansion done; then announces the job
 * (and the campaign) finished if its chunks are all done already (else the last chunk's settling
 * does). Safe to repeat: closing is idempotent and the events' ids are the job's and the campaign's.
 *
 * @example
 * await closeCampaignJob(ports, campaign);
 */
export async function closeCampaignJob(ports: ClosePorts, campaign: LaunchedCampaign): Promise<void> {
  const { expansion } = campaign;
  const totalChunks = Math.ceil(expansion.nextIndex / CHUNK_SIZE);
  // Closed by a cancel before every audience was read: the members not read were withheld by it.
  const stopped = expansion.status !== 'done' && expansion.audienceIndex < campaign.audience.audienceIds.length;
  await ports.broadcasts.closeExpansion(campaign.jobId, { totalRecipients: listedCount(expansion.counts), totalChunks, ...(stopped && { stopped }) });
  if (expansion.status !== 'done') {
    const { waitingUntil: _waitingUntil, pageSize: _pageSize, ...rest } = expansion;
    await advance(ports, campaign, { ...rest, status: 'done', finishedAt: ports.clock.now().toISOString() });
  }
  await announceJobCompletion(ports, campaign.jobId);
}

/**
 * `campaign.started` (docs/CUSTOMER-WEBHOOKS.md "Events"): the first expansion began. Its id is the
 * campaign's, so a repeat is one event for receivers.
 *
 * @example
 * await announceCampaignStarted(ports, campaign);
 */
export async function announceCampaignStarted(ports: Pick<ClosePorts, 'events' | 'clock'>, campaign: LaunchedCampaign): Promise<void> {
  const data = {
    campaignId: campaign.campaignId,
    jobId: campaign.jobId,
    name: campaign.name,
    fromPhoneNumber: campaign.fromPhoneNumber,
    startedAt: campaign.expansion.startedAt,
  };
  await ports.events.publish(
    campaign.organizationId,
    newCustomerEvent({ type: 'campaign.started', sourceKey: campaign.campaignId, createdAt: ports.clock.now(), data }),
  );
}
