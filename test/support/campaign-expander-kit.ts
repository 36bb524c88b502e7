/**
 * The campaign launch and expander on fakes: audiences, a campaign, the job stores, the queues and
 * the messaging limit in memory, and a drain that runs every queued expansion message (as the
 * campaign-expansion queue's consumer would) until none is left or one is delayed past the clock.
 */
import type { AudienceMember } from '../../shared/audiences/audience';
import type { OutboundMessage } from '../../shared/broadcast/chunk-message';
import type { SuppressionList } from '../../shared/broadcast/ports';
import type { Campaign } from '../../shared/campaigns/campaign';
import { expandCampaign, type ExpandCampaignDependencies, type ExpansionOutcome } from '../../shared/campaigns/expand-campaign';
import { launchCampaign, type LaunchCampaignDependencies } from '../../shared/campaigns/launch-campaign';
import type { CustomerEvent } from '../../shared/customer-events/ports';
import type { StoredPair } from '../../shared/inbox/contact-book';
import { fixedClock } from '../../shared/ports/clock';
import { InMemoryBroadcastRepository, InMemorySenderDirectory, ORG, SENDER, template } from './broadcast-fakes';
import { FixedMarketingMessagesOnboarding, FixedMessagingTiers, InMemoryPortfolioReach, RecordingOutboundQueue } from './broadcast-port-fakes';
import { InMemoryCampaignStore, InMemoryExpansionQueue, InMemoryPersonClaims } from './in-memory-campaign-store';
import { InMemoryMemberSource } from './in-memory-member-source';
import { InMemoryTouchStore } from './in-memory-touch-store';

export const CAMPAIGN_TEMPLATE = template({ name: 'spring_sale', category: 'MARKETING', body: 'Hi {{1}}, use {{2}}' });

/** The suppression list in memory: numbers (or BSUIDs) opted out per organization. */
export class InMemorySuppressionList implements SuppressionList {
  readonly optedOut = new Set<string>();
  async suppressedAmong(organizationId: string, keys: readonly string[]): Promise<ReadonlySet<string>> {
    return new Set(keys.filter((key) => this.optedOut.has(`${organizationId}|${key}`)));
  }
}

/** A member of the test audiences: `91` numbers from an index (`91<numberPrefix>…`, `9198…` unless given), or a BSUID. */
export function member(
  index: number,
  attributes: AudienceMember['attributes'] = { first_name: `P${index}` },
  tags: string[] = [],
  numberPrefix = '98',
): AudienceMember {
  const toPhoneNumber = `${numberPrefix}${String(index).padStart(8, '0')}`;
  return {
    personKey: `91${toPhoneNumber}`,
    to: `91${toPhoneNumber}`,
    countryCode: '91',
    toPhoneNumber,
    attributes,
    tags,
    updatedAt: '2026-05-01T00:00:00.000Z',
  };
}

export function bsuidMember(userId: string, attributes: AudienceMember['attributes'] = { first_name: userId }): AudienceMember {
  return { personKey: userId, to: userId, countryCode: '', toPhoneNumber: '', userId, attributes, tags: [], updatedAt: '2026-05-01T00:00:00.000Z' };
}

export function campaignKit(start = '2026-05-04T10:00:00.000Z') {
  const clock = fixedClock(start);
  const campaigns = new InMemoryCampaignStore();
  const claims = new InMemoryPersonClaims();
  const members = new InMemoryMemberSource();
  const broadcasts = new InMemoryBroadcastRepository();
  const queue = new RecordingOutboundQueue();
  const expansions = new InMemoryExpansionQueue();
  const optOuts = new InMemorySuppressionList();
  const pairs = new Map<string, StoredPair>();
  const published: CustomerEvent[] = [];
  const messagingTiers = new FixedMessagingTiers();
  const portfolioReach = new InMemoryPortfolioReach();
  const touches = new InMemoryTouchStore();
  const shared = {
    campaigns,
    members,
    broadcasts,
    expansions,
    clock,
    senders: new InMemorySenderDirectory(),
    templates: { templatesOf: async () => [CAMPAIGN_TEMPLATE] },
    messagingTiers,
    portfolioReach,
  };
  const expander: ExpandCampaignDependencies = {
    ...shared,
    claims,
    queue,
    optOuts,
    touches,
    contactBook: {
      pairsOf: async (_organizationId: string, keys: readonly string[]) =>
        new Map(keys.flatMap((key) => (pairs.has(key) ? [[key, pairs.get(key)!] as const] : []))),
    },
    events: { publish: async (_organizationId: string, event: CustomerEvent) => void published.push(event) },
    budget: { pages: 3 },
  };
  const launcher: LaunchCampaignDependencies = {
    ...shared,
    marketingMessages: new FixedMarketingMessagesOnboarding(),
    standing: { isSuspended: async () => false },
    ids: { newId: (prefix: string) => `${prefix}_${Math.random().toString(36).slice(2)}` },
  };
  return {
    clock,
    campaigns,
    claims,
    members,
    broadcasts,
    queue,
    expansions,
    optOuts,
    pairs,
    published,
    messagingTiers,
    portfolioReach,
    touches,
    expander,
    launcher,
  };
}

export type CampaignKit = ReturnType<typeof campaignKit>;

export function seedAudience(kit: CampaignKit, audienceId: string, audienceMembers: readonly AudienceMember[]): void {
  kit.members.seed(
    { audienceId, organizationId: ORG, name: audienceId, memberCount: 0, createdAt: '2026-05-01T00:00:00.000Z', updatedAt: '2026-05-01T00:00:00.000Z' },
    audienceMembers,
  );
}

export async function createCampaign(kit: CampaignKit, overrides: Partial<Campaign> = {}): Promise<Campaign> {
  const campaign: Campaign = {
    campaignId: 'cmp_spring',
    organizationId: ORG,
    name: 'Spring',
    fromPhoneNumber: SENDER.phoneNumber,
    template: { name: CAMPAIGN_TEMPLATE.name, language: CAMPAIGN_TEMPLATE.language, category: 'MARKETING' },
    audience: { audienceIds: ['aud_a'] },
    values: { templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'SPRING25'] },
    createdAt: '2026-05-04T09:00:00.000Z',
    updatedAt: '2026-05-04T09:00:00.000Z',
    ...overrides,
  };
  await kit.campaigns.createCampaign(campaign);
  return campaign;
}

export const launch = (kit: CampaignKit, campaignId = 'cmp_spring', idempotencyKey?: string) =>
  launchCampaign(kit.launcher, { organizationId: ORG }, campaignId, idempotencyKey === undefined ? {} : { idempotencyKey });

/** When each queued expansion message becomes visible: its enqueue time (first seen by a drain) plus its delay. */
const dueAt = new WeakMap<object, number>();

/**
 * Runs queued expansion messages in order until none is due (a delayed one waits for the clock to
 * reach its time); every outcome, in order. `deliverTwice`: each message is handled twice at once (a redelivery).
 */
export async function drainExpansions(
  kit: CampaignKit,
  options: { deliverTwice?: boolean; dependencies?: ExpandCampaignDependencies } = {},
): Promise<ExpansionOutcome[]> {
  const outcomes: ExpansionOutcome[] = [];
  for (let guard = 0; guard < 10_000; guard += 1) {
    const now = kit.clock.now().getTime();
    for (const entry of kit.expansions.queued) if (!dueAt.has(entry)) dueAt.set(entry, now + entry.delaySeconds * 1000);
    const position = kit.expansions.queued.findIndex((entry) => dueAt.get(entry)! <= now);
    if (position === -1) return outcomes;
    const [entry] = kit.expansions.queued.splice(position, 1);
    const dependencies = options.dependencies ?? kit.expander;
    // A redelivery: a second consumer of the same message at the same time, from the same checkpoint.
    const runs = options.deliverTwice ? [entry, entry] : [entry];
    outcomes.push(...(await Promise.all(runs.map((each) => expandCampaign(dependencies, each!.message)))));
  }
  throw new Error('expansion did not settle');
}

/** Every recipient queued, by `to`: the distinct indexes each was queued under (exactly once: one each). */
export function queuedIndexesByRecipient(messages: readonly OutboundMessage[]): Map<string, Set<number>> {
  const byTo = new Map<string, Set<number>>();
  for (const message of messages)
    for (const recipient of message.recipients) byTo.set(recipient.to, (byTo.get(recipient.to) ?? new Set()).add(recipient.index));
  return byTo;
}
