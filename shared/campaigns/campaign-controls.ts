/**
 * Pause, resume and cancel of a campaign (docs/CAMPAIGNS.md "Pause, resume and cancel"): a campaign
 * runs as one broadcast job, so each is its job's (pause-job.ts, resume-job.ts, cancel-job.ts), one
 * mechanism for jobs and campaigns. The chunk workers hold the job's rest while it is paused (sends
 * under way finish) and send each remaining recipient exactly once after the resume; the campaign
 * expander stops appending while its job is paused or cancelled (it reads the same job control).
 *
 * Before its launch a campaign has no job: a DRAFT cannot be paused or resumed, and its cancel
 * records `cancelledAt` on the campaign (it never sends; a later launch is refused). The caller may
 * control exactly the campaigns whose status it may read (a key's scope as for jobs).
 */
import { cancelJob } from '../broadcast/cancel-job';
import { JobAlreadyFinishedError, JobNotResumableError } from '../broadcast/errors';
import type { ScopedCaller } from '../broadcast/key-scope';
import { pauseJob, type PauseJobPorts } from '../broadcast/pause-job';
import type { StatusReading } from '../broadcast/get-job-status';
import type { JobFiringScheduler } from '../broadcast/ports';
import { resumeJob } from '../broadcast/resume-job';
import type { Campaign, CampaignState } from './campaign';
import { readableCampaign } from './campaign-access';
import { readCampaignView } from './campaign-view';
import { CampaignAlreadyFinishedError, CampaignNotFoundError, CampaignNotPausableError, CampaignNotPausedError } from './errors';
import type { CampaignStore, ExpansionQueue } from './ports';

export interface CampaignControlPorts extends PauseJobPorts {
  campaigns: Pick<CampaignStore, 'getCampaign' | 'cancelUnlaunched'>;
  /** A resumed campaign whose expansion is not done is expanded again at once (the expander looks at a paused job only every PAUSED_RECHECK_SECONDS). */
  expansions?: ExpansionQueue;
  /** A scheduled job's trigger is removed with it. */
  scheduling?: { firings: JobFiringScheduler };
}

/** What a control answers: the campaign and the state its view reads now (campaign-view.ts; a cancel: CANCELLED, acknowledged as a job's cancel is). */
export interface CampaignControlView {
  campaignId: string;
  state: CampaignState;
}

/** The job errors of a control, said of the campaign. */
function asCampaignRefusal(error: unknown, campaignId: string, action: 'pause' | 'resume' | 'cancel'): unknown {
  if (error instanceof JobAlreadyFinishedError && action === 'pause')
    return new CampaignNotPausableError(`Campaign ${campaignId} has finished or was cancelled; it cannot be paused`);
  if (error instanceof JobNotResumableError) {
    return new CampaignNotPausedError(
      `Campaign ${campaignId} is not paused by a person, halted by its canary or held by Meta's refusal of the account; there is nothing to resume`,
    );
  }
  if (error instanceof JobAlreadyFinishedError)
    return new CampaignAlreadyFinishedError(`Campaign ${campaignId} has already finished; nothing is left to cancel`);
  return error;
}

function notLaunched(campaign: Campaign, action: 'paused' | 'resumed'): Error {
  const why =
    campaign.cancelledAt !== undefined
      ? `Campaign ${campaign.campaignId} was cancelled before its launch`
      : `Campaign ${campaign.campaignId} is a DRAFT: it has not been launched, nothing is sending`;
  return action === 'paused' ? new CampaignNotPausableError(why) : new CampaignNotPausedError(why);
}

/**
 * Pauses the campaign's job (`pausedBy: 'user'`, the caller's credential, no deadline): nothing more
 * is sent until it is resumed. A repeat answers the same. A DRAFT, a campaign cancelled or finished: 409.
 *
 * @example
 * await pauseCampaign(ports, caller, 'cmp_1', { now, unconfirmedAfterMs }); // { campaignId: 'cmp_1', state: 'PAUSED' } (a scheduled one: 'SCHEDULED', held from its firing on)
 */
export async function pauseCampaign(
  ports: CampaignControlPorts,
  caller: ScopedCaller,
  campaignId: string,
  reading: StatusReading,
): Promise<CampaignControlView> {
  const campaign = await readableCampaign(ports.campaigns, caller, campaignId);
  if (campaign.jobId === undefined) throw notLaunched(campaign, 'paused');
  await pauseJob(ports, caller, campaign.jobId, reading).catch((error: unknown) => Promise.reject(asCampaignRefusal(error, campaignId, 'pause')));
  return { campaignId, state: (await readCampaignView(ports, campaign, reading)).state };
}

/**
 * Resumes the campaign's job held by a person's pause or by Meta's refusal of the account: its held
 * recipients are sent at their next look (within PAUSE_RECHECK_SECONDS), each exactly once, and the
 * expansion goes on at once. Not paused that way: 409 CAMPAIGN_NOT_PAUSED.
 *
 * @example
 * await resumeCampaign(ports, caller, 'cmp_1', { now, unconfirmedAfterMs }); // { campaignId: 'cmp_1', state: 'SENDING' }
 */
export async function resumeCampaign(
  ports: CampaignControlPorts,
  caller: ScopedCaller,
  campaignId: string,
  reading: StatusReading,
): Promise<CampaignControlView> {
  const campaign = await readableCampaign(ports.campaigns, caller, campaignId);
  if (campaign.jobId === undefined) throw notLaunched(campaign, 'resumed');
  await resumeJob(ports.broadcasts, caller, campaign.jobId, reading).catch((error: unknown) => Promise.reject(asCampaignRefusal(error, campaignId, 'resume')));
  // A second expansion message is harmless: the checkpoint's version lets one delivery advance.
  if (campaign.expansion && campaign.expansion.status !== 'done')
    await ports.expansions?.enqueueExpansion({ version: 1, organizationId: campaign.organizationId, campaignId });
  return { campaignId, state: (await readCampaignView(ports, campaign, reading)).state };
}

/**
 * Cancels the campaign. Launched: its job is cancelled (cancel-job.ts): nothing more is sent, every
 * recipient not yet sent is counted `cancelled`, the expander appends no more. Never launched (DRAFT):
 * recorded on the campaign, which never sends. A repeat answers the same; a finished campaign: 409.
 *
 * @example
 * await cancelCampaign(ports, caller, 'cmp_1', { now, unconfirmedAfterMs }); // { campaignId: 'cmp_1', state: 'CANCELLED' }
 */
export async function cancelCampaign(
  ports: CampaignControlPorts,
  caller: ScopedCaller,
  campaignId: string,
  reading: StatusReading,
): Promise<CampaignControlView> {
  let campaign = await readableCampaign(ports.campaigns, caller, campaignId);
  if (campaign.jobId === undefined) {
    const result = await ports.campaigns.cancelUnlaunched(campaign.organizationId, campaignId, reading.now);
    if (result.cancelled) return { campaignId, state: 'CANCELLED' };
    // Launched meanwhile: its job is cancelled instead.
    if (result.campaign?.jobId === undefined) throw new CampaignNotFoundError(campaignId);
    campaign = result.campaign;
  }
  await cancelJob(ports.broadcasts, caller, campaign.jobId!, reading, ports.scheduling).catch((error: unknown) =>
    Promise.reject(asCampaignRefusal(error, campaignId, 'cancel')),
  );
  return { campaignId, state: 'CANCELLED' };
}
