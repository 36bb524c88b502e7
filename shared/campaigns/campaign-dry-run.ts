/**
 * The dry run of a campaign's launch (POST /campaigns/{campaignId}/launch?dryRun=true; docs/CAMPAIGNS.md
 * "Dry run"): the audiences read page by page with the expander's own rules (one person per key,
 * paired BSUIDs, `excludeAudienceIds`, the filter: expansion-members.ts; each member filled and
 * checked against the template: expansion-page.ts `memberCheck`; the opt-out list), the cost as the
 * broadcast dry run estimates it (the rate card, by calling code and the template's category), and
 * the messaging limit's plan (limit-plan.ts). Nothing is written: no claim, no job, no reservation.
 *
 * Bounded: at most DRY_RUN_MAX_MEMBERS members are read (one request's time; the duplicates are
 * found with a set of the persons read, in memory, as large as that). When the audiences hold more,
 * every count is scaled from what was read by the audiences' member counts and `estimated` is true.
 */
import type { MemberSource } from '../audiences/ports';
import type { ChunkRecipient } from '../broadcast/chunk-message';
import { requireOperationInScope, requireSenderInScope, type ScopedCaller } from '../broadcast/key-scope';
import type { MessagingLimitDependencies } from '../broadcast/messaging-limit';
import { withoutOptedOut } from '../broadcast/send-template-broadcast';
import type { SuppressionList } from '../broadcast/ports';
import { maxPriceOf, type MaxPrice } from '../broadcast/template-max-price';
import { CostTally, type CostTotals, type RateCardSource } from '../pricing/rate-card';
import { callingCodeOf } from '../recipients/calling-code';
import { templateMessageBody } from '../sending/message-bodies';
import { variableNamesOf } from '../templates/template-components';
import { emptyExpansionCounts, type Campaign, type ExpansionCounts } from './campaign';
import { campaignTemplateOf, type CampaignTemplatePorts } from './campaign-template';
import { candidatesOf, type MemberPorts } from './expansion-members';
import { memberCheck } from './expansion-page';
import { readableCampaign } from './campaign-access';
import { planSends, type LimitPlanStep } from './limit-plan';
import { readLimitWindow } from './limit-window';
import type { CampaignStore } from './ports';
import { MISSING_ATTRIBUTE } from '../sending/failure-reasons';
import { SendWindowPlanner, type SendWindowPlan } from '../send-rules/send-window-plan';

/** Members one dry run reads at most (about 50 pages of 1,000: a few seconds), and so the persons it keeps in memory. */
export const DRY_RUN_MAX_MEMBERS = 50_000;
const PAGE_SIZE = 1_000;
const SAMPLE_SIZE = 3;

export interface CampaignDryRunDependencies extends CampaignTemplatePorts, MessagingLimitDependencies, MemberPorts {
  campaigns: Pick<CampaignStore, 'getCampaign'>;
  members: Pick<MemberSource, 'readMembers' | 'membersAmong' | 'describeAudience'>;
  optOuts: SuppressionList;
  rateCards?: RateCardSource;
  clock: { now(): Date };
}

export interface CampaignDryRun {
  audience: { members: number; duplicates: number; optedOut: number; excluded: number; filteredOut: number; missingAttribute: number; invalid: number };
  sendable: number;
  /** As the broadcast dry run's: absent without a rate card. */
  estimatedCost?: CostTotals & { upTo?: true; maxPrice?: MaxPrice };
  messagingLimit: { tier: string; headroom: number | null; plan: LimitPlanStep[] };
  /** The first rendered messages, as they would be sent (Meta's request body). */
  sample: Array<Record<string, unknown>>;
  /** True when the audiences hold more than DRY_RUN_MAX_MEMBERS: counts scaled from the members read. */
  estimated: boolean;
  membersRead: number;
  /** With the campaign's `sendWindow`: how many go at launch and when the rest go (docs/CAMPAIGNS.md "Send windows"); scaled as the counts. */
  sendWindow?: SendWindowPlan;
}

/** What reading the audiences found: the counts, the cost so far, the first messages. */
interface Reading {
  counts: ExpansionCounts;
  persons: Set<string>;
  tally?: CostTally;
  sample: ChunkRecipient[];
  complete: boolean;
}

/**
 * Reads the campaign's audiences (as far as the bound) and answers what its launch would do.
 *
 * @example
 * const result = await dryRunCampaign(dependencies, caller, 'cmp_1');
 * // { audience: { members: 3800, duplicates: 305, optedOut: 1, … }, sendable: 3444, messagingLimit: { tier, headroom, plan }, sample: [ … ], estimated: false, membersRead: 3800 }
 */
export async function dryRunCampaign(dependencies: CampaignDryRunDependencies, caller: ScopedCaller, campaignId: string): Promise<CampaignDryRun> {
  requireOperationInScope(caller, 'manage-campaigns');
  const campaign = await readableCampaign(dependencies.campaigns, caller, campaignId);
  requireSenderInScope(caller, campaign.fromPhoneNumber);
  const now = dependencies.clock.now();
  const { sender, template, requirements } = await campaignTemplateOf(dependencies, campaign);
  const card = await dependencies.rateCards?.rateCardOf(campaign.organizationId);
  const reading: Reading = { counts: emptyExpansionCounts(), persons: new Set(), ...(card ? { tally: new CostTally(card) } : {}), sample: [], complete: true };
  const check = memberCheck({
    campaignId,
    organizationId: campaign.organizationId,
    values: campaign.values,
    templateName: template.name,
    requirements,
    pageStart: 0,
    now,
  });
  const windows = campaign.sendRules?.sendWindow && new SendWindowPlanner(campaign.sendRules.sendWindow, now);
  await readAudiences(
    dependencies,
    campaign,
    reading,
    (recipients) => {
      for (const { to } of recipients) reading.tally?.add(callingCodeOf(to), template.category.toLowerCase());
      windows?.add(recipients);
    },
    check,
  );
  const scale = reading.complete ? 1 : await scaleOf(dependencies, campaign, reading.counts.members);
  const counts = scaled(reading.counts, scale);
  const window = await readLimitWindow(dependencies, sender, now);
  const { headroom, plan } = planSends(window, counts.sendable);
  const variableNames = variableNamesOf(requirements);
  const maxPrice = maxPriceOf(template);
  const cost = reading.tally && scaledCost(reading.tally.totals(), scale);
  return {
    audience: {
      members: counts.members,
      duplicates: counts.duplicates,
      optedOut: counts.optedOut,
      excluded: counts.excluded,
      filteredOut: counts.filteredOut,
      missingAttribute: counts.missingAttribute,
      invalid: counts.invalid,
    },
    sendable: counts.sendable,
    ...(cost && { estimatedCost: maxPrice ? { ...cost, upTo: true as const, maxPrice } : cost }),
    messagingLimit: { tier: window.tier, headroom, plan },
    sample: reading.sample.map((recipient) =>
      templateMessageBody({ name: template.name, language: template.language, ...(variableNames && { variableNames }) }, recipient),
    ),
    estimated: !reading.complete,
    membersRead: reading.counts.members,
    ...(windows && { sendWindow: windows.plan(scale) }),
  };
}

/** Each audience page by page: its candidates (expansion-members.ts), the persons met before dropped, the rest filled, checked and looked up on the opt-out list. */
async function readAudiences(
  dependencies: CampaignDryRunDependencies,
  campaign: Campaign,
  reading: Reading,
  onSendable: (recipients: readonly ChunkRecipient[]) => void,
  check: ReturnType<typeof memberCheck>,
): Promise<void> {
  const { counts } = reading;
  for (const audienceId of campaign.audience.audienceIds) {
    let cursor: string | undefined;
    do {
      const limit = Math.min(PAGE_SIZE, DRY_RUN_MAX_MEMBERS - counts.members);
      if (limit <= 0) {
        reading.complete = false;
        return;
      }
      const page = await dependencies.members.readMembers(campaign.organizationId, audienceId, { limit, ...(cursor ? { cursor } : {}) });
      const candidates = await candidatesOf(dependencies, campaign.organizationId, campaign.audience, page.members, counts);
      const fresh = candidates.filter(({ person }) => !reading.persons.has(person));
      counts.duplicates += candidates.length - fresh.length;
      const filled: ChunkRecipient[] = [];
      for (const { member, person } of fresh) {
        reading.persons.add(person);
        const result = check(member, counts.members + filled.length);
        if ('reason' in result) counts[result.reason === MISSING_ATTRIBUTE ? 'missingAttribute' : 'invalid'] += 1;
        else filled.push(result);
      }
      const { queued, refused } =
        filled.length === 0
          ? { queued: [], refused: [] }
          : await withoutOptedOut(dependencies.optOuts, campaign.organizationId, filled, dependencies.clock.now());
      counts.optedOut += refused.length;
      counts.sendable += queued.length;
      onSendable(queued);
      reading.sample.push(...queued.slice(0, SAMPLE_SIZE - reading.sample.length));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }
}

/** How many times more members the audiences hold than were read (their member counts; at least 1). */
async function scaleOf(dependencies: CampaignDryRunDependencies, campaign: Campaign, read: number): Promise<number> {
  let total = 0;
  for (const audienceId of campaign.audience.audienceIds)
    total += (await dependencies.members.describeAudience(campaign.organizationId, audienceId))?.memberCount ?? 0;
  return read === 0 ? 1 : Math.max(1, total / read);
}

const scaled = (counts: ExpansionCounts, scale: number): ExpansionCounts =>
  Object.fromEntries(Object.entries(counts).map(([name, count]) => [name, Math.round(count * scale)])) as unknown as ExpansionCounts;

/** A decimal amount times `scale`, with the amount's own decimals. */
const scaledAmount = (amount: string, scale: number): string => (Number(amount) * scale).toFixed(amount.split('.')[1]?.length ?? 0);

function scaledCost(totals: CostTotals, scale: number): CostTotals {
  if (scale === 1) return totals;
  const byCategory = Object.fromEntries(
    Object.entries(totals.byCategory).map(([category, { count, amount }]) => [
      category,
      { count: Math.round(count * scale), amount: scaledAmount(amount, scale) },
    ]),
  );
  return {
    ...totals,
    amount: scaledAmount(totals.amount, scale),
    priced: Math.round(totals.priced * scale),
    unpriced: Math.round(totals.unpriced * scale),
    byCategory,
  };
}
