/**
 * The campaign expander (docs/CAMPAIGNS.md "How a campaign runs"): one message of the
 * campaign-expansion queue names a campaign; its checkpoint says where the expansion stands. Page
 * by page (at most 1,000 members, fewer when the messaging limit's headroom is smaller) it reads the
 * campaign's audiences in order, turns each page into one chunk of the campaign's job
 * (expansion-members.ts, expansion-page.ts, expansion-output.ts) and checkpoints. It never holds
 * more than one page. After its time budget it queues itself to go on; it waits (a delayed message,
 * re-queued until due) for a scheduled start, for the messaging limit's window and while the job is
 * paused; it stops when the job is cancelled, and closes the job once every audience is read. With a
 * canary or halt thresholds it also watches (canary-watch.ts): it appends only the canary's slice,
 * judges it, and looks at the thresholds while the campaign runs, halting it when they are exceeded.
 */
import type { MessagingLimitDependencies } from '../broadcast/messaging-limit';
import type { ChunkProgressStore, JobControlStore, JobStore, SenderAccount, SenderDirectory, SuppressionList } from '../broadcast/ports';
import type { TemplateCatalog } from '../broadcast/template-catalog';
import type { Clock } from '../ports/clock';
import { CHUNK_SIZE } from '../broadcast/broadcast-job';
import { TemplateNotApprovedError } from '../broadcast/errors';
import { campaignTemplateOf, type CampaignTemplate } from './campaign-template';
import { advance, announceCampaignStarted, closeCampaignJob, type ClosePorts, type LaunchedCampaign } from './expansion-checkpoint';
import { pageAllowance, reservePage } from './expansion-limit';
import { candidatesOf, type MemberPorts } from './expansion-members';
import { writeChunk, type OutputPorts } from './expansion-output';
import { haltCheckSecondsOf, sliceQueued, watchAfterClose, watchStep, withinCanary, type WatchPorts } from './canary-watch';
import { chunkOfPage, type PagePorts } from './expansion-page';
import { EXPANSION_TIME_BUDGET_MS, MAX_EXPANSION_DELAY_SECONDS, PAUSED_RECHECK_SECONDS, expansionDelaySeconds } from './expansion-timing';
import type { CampaignStore, ExpansionMessage, ExpansionQueue } from './ports';
import type { ExpansionProgress } from './campaign';
import type { MemberSource } from '../audiences/ports';

export interface ExpandCampaignDependencies extends MessagingLimitDependencies, MemberPorts, PagePorts {
  campaigns: Pick<CampaignStore, 'getCampaign' | 'saveExpansion'>;
  members: Pick<MemberSource, 'readMembers' | 'membersAmong'>;
  broadcasts: OutputPorts['broadcasts'] &
    ClosePorts['broadcasts'] &
    Pick<JobStore, 'getJob'> &
    Pick<JobControlStore, 'readJobControl' | 'pauseJob'> &
    Pick<ChunkProgressStore, 'getJobProgress'>;
  queue: OutputPorts['queue'];
  touches: OutputPorts['touches'];
  expansions: ExpansionQueue;
  senders: Pick<SenderDirectory, 'resolveSender'>;
  templates: Pick<TemplateCatalog, 'templatesOf'>;
  optOuts: SuppressionList;
  events: ClosePorts['events'];
  clock: Clock;
  /**
   * How long one invocation works before it queues itself to go on (`elapsedMs` since it started);
   * `pages`: at most this many pages (tests); `maxDelaySeconds`: its longest wait per message
   * (default 900; a wait is re-queued until due, so a shorter one only looks more often).
   */
  budget?: { timeMs?: number; elapsedMs?: () => number; pages?: number; maxDelaySeconds?: number };
  /** The canary's and halt thresholds' looks (canary-watch.ts); absent: the defaults. */
  watchTiming?: WatchPorts['watchTiming'];
}

export type ExpansionOutcome = 'done' | 'continued' | 'waiting' | 'watching' | 'paused' | 'cancelled' | 'superseded' | 'not-found';

type Step = { next: 'page' } | { stop: ExpansionOutcome; delaySeconds?: number };

/**
 * Expands the campaign as far as this invocation's budget goes.
 *
 * @example
 * await expandCampaign(dependencies, { version: 1, organizationId: 'org_1', campaignId: 'cmp_…' }); // 'continued'
 */
export async function expandCampaign(dependencies: ExpandCampaignDependencies, message: ExpansionMessage): Promise<ExpansionOutcome> {
  const campaign = await dependencies.campaigns.getCampaign(message.organizationId, message.campaignId);
  if (!campaign?.jobId || !campaign.expansion || !campaign.launchedAt) return 'not-found';
  const launched = campaign as LaunchedCampaign;
  const job = await dependencies.broadcasts.getJob(launched.jobId);
  if (!job || job.kind !== 'template') return 'not-found';
  let sending: CampaignTemplate | 'not-approved' | undefined;
  const started = dependencies.budget?.elapsedMs?.() ?? 0;
  for (let pages = 0; ; pages += 1) {
    const overBudget =
      pages >= (dependencies.budget?.pages ?? Infinity) ||
      (dependencies.budget?.elapsedMs?.() ?? 0) - started >= (dependencies.budget?.timeMs ?? EXPANSION_TIME_BUDGET_MS);
    if (overBudget) return requeue(dependencies, message, { stop: 'continued' });
    const step = await beforePage(dependencies, launched);
    if ('stop' in step) return requeue(dependencies, message, step);
    sending ??= await sendingOf(dependencies, launched);
    if (sending === 'not-approved') return requeue(dependencies, message, { stop: 'paused', delaySeconds: PAUSED_RECHECK_SECONDS });
    const after = await expandPage(dependencies, launched, job, sending);
    if ('stop' in after) return requeue(dependencies, message, after);
  }
}

/**
 * The sender and template, read once per invocation. A template Meta paused or disabled since the
 * launch is waited for, as a job's chunks wait for it (its own pause settles what was queued); any
 * other refusal (the sender or template gone) fails the message, which then rests in the dead-letter queue.
 */
async function sendingOf(dependencies: ExpandCampaignDependencies, campaign: LaunchedCampaign): Promise<CampaignTemplate | 'not-approved'> {
  try {
    return await campaignTemplateOf(dependencies, campaign);
  } catch (error) {
    if (error instanceof TemplateNotApprovedError) return 'not-approved';
    throw error;
  }
}

async function requeue(
  dependencies: ExpandCampaignDependencies,
  message: ExpansionMessage,
  step: Extract<Step, { stop: ExpansionOutcome }>,
): Promise<ExpansionOutcome> {
  const delaySeconds = Math.min(step.delaySeconds ?? 0, dependencies.budget?.maxDelaySeconds ?? MAX_EXPANSION_DELAY_SECONDS);
  if (step.stop === 'continued' || step.stop === 'waiting' || step.stop === 'watching' || step.stop === 'paused')
    await dependencies.expansions.enqueueExpansion(message, delaySeconds);
  return step.stop;
}

/** What stands before the next page: done, cancelled, paused, a wait not over, a page size to decide. */
async function beforePage(dependencies: ExpandCampaignDependencies, campaign: LaunchedCampaign): Promise<Step> {
  const now = dependencies.clock.now();
  const { expansion } = campaign;
  // Closed: the running thresholds watch until the job finished, then it is closed (again: idempotent) and announced.
  if (expansion.status === 'done') return (await watchAfterClose(dependencies, campaign)) ?? closed(dependencies, campaign, 'done', false);
  // Read on every look, waits included: a campaign cancelled while it waits closes then, not when the wait ends.
  const control = await dependencies.broadcasts.readJobControl(campaign.jobId);
  if (!control || control.cancelled) return closed(dependencies, campaign, 'cancelled');
  // A scheduled start (version 0) or the messaging limit's window: the message comes back until due.
  if (expansion.waitingUntil !== undefined && Date.parse(expansion.waitingUntil) > now.getTime()) {
    return { stop: 'waiting', delaySeconds: expansionDelaySeconds(expansion.waitingUntil, now) };
  }
  if (control.pause) return { stop: 'paused', delaySeconds: PAUSED_RECHECK_SECONDS };
  const watched = await watchStep(dependencies, campaign);
  if (watched) return watched;
  if (expansion.audienceIndex >= campaign.audience.audienceIds.length) return closed(dependencies, campaign, 'done');
  if (expansion.pageSize !== undefined) return { next: 'page' };
  return decidePageSize(dependencies, campaign, now);
}

async function closed(dependencies: ExpandCampaignDependencies, campaign: LaunchedCampaign, outcome: ExpansionOutcome, keepWatching = true): Promise<Step> {
  await closeCampaignJob(dependencies, campaign);
  if (outcome === 'done' && keepWatching && campaign.sendRules?.haltIf !== undefined)
    return { stop: 'watching', delaySeconds: haltCheckSecondsOf(dependencies) };
  return { stop: outcome };
}

/** The next page's size from the limit's headroom, checkpointed before the page is read; the first one starts the campaign. */
async function decidePageSize(dependencies: ExpandCampaignDependencies, campaign: LaunchedCampaign, now: Date): Promise<Step> {
  const sender: SenderAccount = await dependencies.senders.resolveSender(campaign.organizationId, campaign.fromPhoneNumber);
  const allowance = await pageAllowance(dependencies, sender, now);
  const firstStart = campaign.expansion.version === 0;
  const { waitingUntil: _waitingUntil, ...expansion } = campaign.expansion;
  const base = firstStart ? { ...expansion, startedAt: now.toISOString() } : expansion;
  const saved =
    'pageSize' in allowance
      ? await advance(dependencies, campaign, { ...base, status: 'running', pageSize: withinCanary(allowance.pageSize, base) })
      : await advance(dependencies, campaign, { ...base, status: 'waiting', waitingUntil: allowance.waitUntil.toISOString() });
  if (!saved) return { stop: 'superseded' };
  if (firstStart) await announceCampaignStarted(dependencies, campaign);
  return 'pageSize' in allowance ? { next: 'page' } : { stop: 'waiting', delaySeconds: expansionDelaySeconds(saved.waitingUntil, now) };
}

/** One page: read, turn into a chunk, reserve its recipients against the limit, write and queue it, checkpoint. */
async function expandPage(
  dependencies: ExpandCampaignDependencies,
  campaign: LaunchedCampaign,
  job: Parameters<typeof writeChunk>[1],
  sending: CampaignTemplate,
): Promise<Step> {
  const { expansion } = campaign;
  const now = dependencies.clock.now();
  const audienceId = campaign.audience.audienceIds[expansion.audienceIndex]!;
  const page = await dependencies.members.readMembers(campaign.organizationId, audienceId, {
    limit: expansion.pageSize!,
    ...(expansion.cursor !== undefined && { cursor: expansion.cursor }),
  });
  const counts = { ...expansion.counts };
  const candidates = await candidatesOf(dependencies, campaign.organizationId, campaign.audience, page.members, counts);
  const pageSending = {
    campaignId: campaign.campaignId,
    organizationId: campaign.organizationId,
    values: campaign.values,
    templateName: sending.template.name,
    requirements: sending.requirements,
    pageStart: expansion.nextIndex,
    now,
    ...(campaign.holdout && { holdout: campaign.holdout }),
  };
  const chunk = await chunkOfPage(dependencies, pageSending, candidates, counts);
  const reserved = await reservePage(
    dependencies,
    sending.sender,
    chunk.recipients.map(({ to }) => to),
    now,
  );
  if ('waitUntil' in reserved) {
    const saved = await advance(dependencies, campaign, { ...expansion, status: 'waiting', waitingUntil: reserved.waitUntil.toISOString() });
    return saved ? { stop: 'waiting', delaySeconds: expansionDelaySeconds(saved.waitingUntil, now) } : { stop: 'superseded' };
  }
  await writeChunk(dependencies, job, expansion.nextIndex / CHUNK_SIZE, chunk);
  const lastPage = page.nextCursor === undefined;
  const { cursor: _cursor, waitingUntil: _waitingUntil, pageSize: _pageSize, ...rest } = expansion;
  const moved = {
    ...rest,
    status: 'running' as const,
    audienceIndex: lastPage ? expansion.audienceIndex + 1 : expansion.audienceIndex,
    ...(!lastPage && { cursor: page.nextCursor }),
    nextIndex: expansion.nextIndex + (chunk.listed.length > 0 ? CHUNK_SIZE : 0),
    counts,
  };
  const next =
    sliceQueued(moved, campaign.audience.audienceIds.length) ?? (await nextPageSize(dependencies, sending.sender, moved, campaign.audience.audienceIds.length));
  return (await advance(dependencies, campaign, next)) ? { next: 'page' } : { stop: 'superseded' };
}

/** The next checkpoint with its page size decided (or a wait), unless every audience is read. */
async function nextPageSize<T extends Pick<ExpansionProgress, 'canary' | 'counts'> & { audienceIndex: number; status: 'running' }>(
  dependencies: ExpandCampaignDependencies,
  sender: SenderAccount,
  moved: T,
  audiences: number,
) {
  if (moved.audienceIndex >= audiences) return moved;
  const now = dependencies.clock.now();
  const allowance = await pageAllowance(dependencies, sender, now);
  return 'pageSize' in allowance
    ? { ...moved, pageSize: withinCanary(allowance.pageSize, moved) }
    : { ...moved, status: 'waiting' as const, waitingUntil: allowance.waitUntil.toISOString() };
}
