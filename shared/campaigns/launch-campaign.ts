/**
 * Launches a campaign (POST /campaigns/{campaignId}/launch; docs/CAMPAIGNS.md "Launch"): checks
 * what can be checked without reading a member (the campaign, its audiences, the sender and
 * template, the organization's standing), creates the campaign's one open-ended job, records the
 * launch and queues one expansion message. Nothing here reads members, so it answers in the same
 * time for ten members or a million; the campaign expander (expand-campaign.ts) does the rest.
 *
 * Idempotent: the job's id is seeded by the campaign id, so a launch that failed after creating
 * the job lands on the same job when retried; the launch is recorded once (markLaunched), and a
 * retry under the same Idempotency-Key gets the first answer (its expansion message queued again:
 * the checkpoint's version makes a second expander harmless). Another launch is refused.
 */
import { withSendRules } from '../send-rules/send-rules.schema';
import { newJob, newJobId } from '../broadcast/job-fan-out';
import { quickRepliesOf } from '../outcomes/quick-replies';
import { requireOperationInScope, requireSenderInScope, type ScopedCaller } from '../broadcast/key-scope';
import { templateRouteOf, type MarketingMessagesRoutingDependencies } from '../broadcast/marketing-messages-onboarding';
import type { Clock, JobStore, OrganizationStanding } from '../broadcast/ports';
import { maxPriceOf } from '../broadcast/template-max-price';
import { sha256Base64Url } from '../crypto/hashing';
import type { IdGenerator } from '../ports/id-generator';
import type { MemberSource } from '../audiences/ports';
import { OrganizationSuspendedError } from '../tenancy/errors';
import { variableNamesOf } from '../templates/template-components';
import { emptyExpansionCounts, type Campaign, type ExpansionProgress } from './campaign';
import { campaignTemplateOf, type CampaignTemplatePorts } from './campaign-template';
import { CampaignAlreadyLaunchedError, CampaignAudienceNotFoundError, CampaignNotFoundError } from './errors';
import type { CampaignStore, ExpansionQueue } from './ports';
import { expansionDelaySeconds } from './expansion-timing';
import { firstWatchOf } from './canary-progress';

export interface LaunchCampaignDependencies extends CampaignTemplatePorts, MarketingMessagesRoutingDependencies {
  campaigns: Pick<CampaignStore, 'getCampaign' | 'markLaunched'>;
  members: Pick<MemberSource, 'describeAudience'>;
  broadcasts: Pick<JobStore, 'createJob'>;
  expansions: ExpansionQueue;
  standing: OrganizationStanding;
  clock: Clock;
  ids: IdGenerator;
}

export interface LaunchCampaignResult {
  campaignId: string;
  /** SCHEDULED when `scheduledAt` is still ahead, else LAUNCHING (the expander makes it SENDING). */
  state: 'LAUNCHING' | 'SCHEDULED';
  jobId: string;
  /** The answer of an earlier launch under the same Idempotency-Key. */
  replayed?: true;
}

/** The launch's Idempotency-Key as the campaign keeps it (`launchRequestHash`). */
const launchHashOf = (idempotencyKey: string): string => sha256Base64Url(`campaign-launch\n${idempotencyKey}`);

/** The job id of a campaign: the same on every launch attempt, so a retry lands on the same job. */
export const campaignJobIdOf = (ids: IdGenerator, organizationId: string, campaignId: string): string =>
  newJobId(ids, 'template', `campaign\n${organizationId}\n${campaignId}`);

/**
 * Launches the campaign, or answers as its launch under the same key did.
 *
 * @example
 * await launchCampaign(dependencies, caller, 'cmp_…', { idempotencyKey: 'launch-1' });
 * // { campaignId: 'cmp_…', state: 'LAUNCHING', jobId: 'pub_…' }
 */
export async function launchCampaign(
  dependencies: LaunchCampaignDependencies,
  caller: ScopedCaller,
  campaignId: string,
  options: { idempotencyKey?: string } = {},
): Promise<LaunchCampaignResult> {
  requireOperationInScope(caller, 'send-template-broadcast');
  const campaign = await dependencies.campaigns.getCampaign(caller.organizationId, campaignId);
  if (!campaign) throw new CampaignNotFoundError(campaignId);
  requireSenderInScope(caller, campaign.fromPhoneNumber);
  const launchRequestHash = options.idempotencyKey === undefined ? undefined : launchHashOf(options.idempotencyKey);
  if (campaign.launchedAt !== undefined) return answerLaunched(dependencies, campaign, launchRequestHash);
  if (await dependencies.standing.isSuspended(caller.organizationId)) throw new OrganizationSuspendedError(caller.organizationId);
  const audienceMembers = await requireAudiences(dependencies, campaign);
  const now = dependencies.clock.now();
  const { jobId, quality } = await createCampaignJob(dependencies, campaign, now);
  const scheduledAt = campaign.scheduledAt !== undefined && Date.parse(campaign.scheduledAt) > now.getTime() ? new Date(campaign.scheduledAt) : undefined;
  // The canary's slice from the audiences' members now, the quality its drop is measured from (docs/CAMPAIGNS.md "Canary and halt thresholds").
  const expansion = { ...firstExpansion(now, scheduledAt), ...firstWatchOf(campaign.sendRules, audienceMembers, quality) };
  const launch = { launchedAt: now.toISOString(), jobId, expansion, ...(launchRequestHash && { launchRequestHash }) };
  const marked = await dependencies.campaigns.markLaunched(caller.organizationId, campaignId, launch);
  if (!marked.launched) {
    if (!marked.campaign) throw new CampaignNotFoundError(campaignId);
    return answerLaunched(dependencies, marked.campaign, launchRequestHash);
  }
  await enqueueFirstExpansion(dependencies, { ...campaign, ...launch });
  return { campaignId, state: scheduledAt ? 'SCHEDULED' : 'LAUNCHING', jobId };
}

/** A launched campaign: the same key's answer (its expansion queued again, in case the first launch stopped before), else refused. */
async function answerLaunched(
  dependencies: LaunchCampaignDependencies,
  campaign: Campaign,
  launchRequestHash: string | undefined,
): Promise<LaunchCampaignResult> {
  if (launchRequestHash === undefined || campaign.launchRequestHash !== launchRequestHash || campaign.jobId === undefined) {
    throw new CampaignAlreadyLaunchedError(campaign.campaignId, campaign.launchedAt ?? '');
  }
  const scheduled = campaign.scheduledAt !== undefined && Date.parse(campaign.scheduledAt) > Date.parse(campaign.launchedAt!);
  await enqueueFirstExpansion(dependencies, campaign);
  return { campaignId: campaign.campaignId, state: scheduled ? 'SCHEDULED' : 'LAUNCHING', jobId: campaign.jobId, replayed: true };
}

/** Every audience the campaign names exists (a deleted one is refused by its field and index); the members of the audiences it sends to. */
async function requireAudiences(dependencies: LaunchCampaignDependencies, campaign: Campaign): Promise<number> {
  const named = [
    ...campaign.audience.audienceIds.map((audienceId, index) => ({ field: `audience.audienceIds[${index}]`, audienceId })),
    ...(campaign.audience.excludeAudienceIds ?? []).map((audienceId, index) => ({ field: `audience.excludeAudienceIds[${index}]`, audienceId })),
  ];
  const found = await Promise.all(named.map(({ audienceId }) => dependencies.members.describeAudience(campaign.organizationId, audienceId)));
  const missing = named.find((_, position) => found[position] === undefined);
  if (missing) throw new CampaignAudienceNotFoundError(missing.field, missing.audienceId);
  return campaign.audience.audienceIds.reduce((total, _, position) => total + (found[position]?.memberCount ?? 0), 0);
}

/** The campaign's one job: a template job without recipients, open for the expander to append to. */
async function createCampaignJob(
  dependencies: LaunchCampaignDependencies,
  campaign: Campaign,
  now: Date,
): Promise<{ jobId: string; quality: string | undefined }> {
  const { sender, template, requirements } = await campaignTemplateOf(dependencies, campaign);
  const route = await templateRouteOf(dependencies, sender, template.category, maxPriceOf(template));
  const variableNames = variableNamesOf(requirements);
  const quickReplies = quickRepliesOf(template.components);
  const job = newJob(
    {
      kind: 'template',
      broadcastName: campaign.name,
      template: {
        name: template.name,
        language: template.language,
        category: template.category,
        id: template.id,
        ...(variableNames && { variableNames }),
        ...route,
        ...(quickReplies && { quickReplies }),
      },
      campaignId: campaign.campaignId,
      expansion: 'open',
      ...(campaign.attributionWindowHours !== undefined && { attributionWindowHours: campaign.attributionWindowHours }),
      ...withSendRules(campaign.sendRules),
    },
    {
      jobId: campaignJobIdOf(dependencies.ids, campaign.organizationId, campaign.campaignId),
      organizationId: campaign.organizationId,
      sender,
      totalRecipients: 0,
      exposed: true,
      now,
      createdByCredentialId: campaign.createdByCredentialId,
    },
  );
  await dependencies.broadcasts.createJob(job, [], []);
  return { jobId: job.jobId, quality: template.quality_score?.score };
}

/**
 * Version 0: nothing read yet. A scheduled campaign's expansion waits for its time (`waitingUntil`,
 * docs/CAMPAIGNS.md "Scheduling") while `running` and unstarted, which reads SCHEDULED; `waiting`
 * is the messaging limit's (WAITING_FOR_LIMIT).
 */
function firstExpansion(now: Date, scheduledAt: Date | undefined): ExpansionProgress {
  const base = { status: 'running' as const, audienceIndex: 0, nextIndex: 0, counts: emptyExpansionCounts(), startedAt: now.toISOString(), version: 0 };
  return scheduledAt ? { ...base, waitingUntil: scheduledAt.toISOString() } : base;
}

async function enqueueFirstExpansion(dependencies: LaunchCampaignDependencies, campaign: Campaign): Promise<void> {
  const message = { version: 1 as const, organizationId: campaign.organizationId, campaignId: campaign.campaignId };
  await dependencies.expansions.enqueueExpansion(message, expansionDelaySeconds(campaign.expansion?.waitingUntil, dependencies.clock.now()));
}
