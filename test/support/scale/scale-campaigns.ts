/**
 * Campaigns in the scale simulation: the REAL launch (shared/campaigns/launch-campaign.ts) and the
 * REAL expander (shared/campaigns/expand-campaign.ts: audiences read page by page, claims, the
 * messaging limit, chunks appended to the campaign's job and queued, checkpoints, the close) on the
 * in-memory fakes of test/support, each store call taking the DynamoDB model's round trip (and its
 * writes charged), each expansion message through the REAL record handler
 * (functions/campaign-expander/handle-expansion-record.ts). Modelled: the launch request's own time
 * (`acceptMs`); the campaign-expansion queue and its Lambda are the SQS and event-source models
 * (scale-world.ts: the expander's mapping, one message a batch, its ceiling from the capacity model).
 * Each campaign's organization has one audience of `campaignMembers` members (scaled: see
 * scale-settings.ts), all sendable.
 */
import type { AudienceMember } from '../../../shared/audiences/audience';
import type { OutboundQueue, SenderAccount } from '../../../shared/broadcast/ports';
import type { ExpandCampaignDependencies } from '../../../shared/campaigns/expand-campaign';
import { encodeExpansionMessage } from '../../../shared/campaigns/expansion-message';
import { launchCampaign, type LaunchCampaignDependencies } from '../../../shared/campaigns/launch-campaign';
import type { ExpansionMessage, ExpansionQueue } from '../../../shared/campaigns/ports';
import type { SQSRecord } from 'aws-lambda';
import { handleExpansionRecord } from '../../../functions/campaign-expander/handle-expansion-record';
import { InMemorySenderDirectory, template } from '../broadcast-fakes';
import { FixedMarketingMessagesOnboarding, FixedMessagingTiers, InMemoryPortfolioReach } from '../broadcast-port-fakes';
import { InMemorySuppressionList, member } from '../campaign-expander-kit';
import { InMemoryCampaignStore, InMemoryPersonClaims } from '../in-memory-campaign-store';
import { InMemoryMemberSource } from '../in-memory-member-source';
import { InMemoryTouchStore } from '../in-memory-touch-store';
import { meteredStore, type DynamoModel } from './dynamo-model';
import type { IndexedBroadcastRepository } from './indexed-broadcast-repository';
import type { BatchHandler } from './lambda-event-source-model';
import { logNormal, type Random } from './seeded-random';
import type { SqsModel } from './sqs-model';
import type { VirtualScheduler } from './virtual-scheduler';

const CAMPAIGN_TEMPLATE = template({ id: 'tpl_campaign', name: 'spring_sale', category: 'MARKETING', body: 'Hi {{1}}, use {{2}}' });
const CREATED_AT = '2026-11-30T09:00:00.000Z';

/** What the campaigns need from the world. */
export interface CampaignSetup {
  time: VirtualScheduler;
  dynamo: DynamoModel;
  store: IndexedBroadcastRepository;
  /** The chunk messages' queue (the world's adapter on the SQS models). */
  queue: OutboundQueue;
  /** The campaign-expansion queue's model (its consumer: `expanderHandler`). */
  expansions: SqsModel<string>;
  random: Random;
  accounts: readonly SenderAccount[];
  members: number;
}

/** `count` members with numbers from `9197…` (apart from the single messages' and broadcasts' `9198…`). */
function membersOf(count: number): AudienceMember[] {
  return Array.from({ length: count }, (_, index) => member(index, { first_name: `P${index}` }, [], '97'));
}

export class ScaleCampaigns {
  /** Expander invocations that threw (the queue redelivers them; none is expected). */
  readonly failures: unknown[] = [];
  private readonly campaigns = new InMemoryCampaignStore();
  private readonly launcher: LaunchCampaignDependencies;
  private readonly expander: ExpandCampaignDependencies;
  private ids = 0;

  constructor(private readonly setup: CampaignSetup) {
    const { dynamo, time } = setup;
    const members = new InMemoryMemberSource();
    const list = membersOf(setup.members);
    for (const account of setup.accounts)
      members.seed(
        { audienceId: 'aud_all', organizationId: account.organizationId, name: 'all', memberCount: 0, createdAt: CREATED_AT, updatedAt: CREATED_AT },
        list,
      );
    const shared = {
      campaigns: meteredStore(this.campaigns, dynamo),
      members: meteredStore(members, dynamo),
      broadcasts: meteredStore(setup.store, dynamo),
      expansions: this.expansionQueue(),
      clock: time,
      senders: new InMemorySenderDirectory([...setup.accounts]),
      templates: { templatesOf: async () => [CAMPAIGN_TEMPLATE] },
      messagingTiers: new FixedMessagingTiers(),
      portfolioReach: meteredStore(new InMemoryPortfolioReach(), dynamo),
    };
    this.launcher = {
      ...shared,
      marketingMessages: new FixedMarketingMessagesOnboarding(),
      standing: { isSuspended: async () => false },
      ids: { newId: (prefix: string) => `${prefix}_${String((this.ids += 1)).padStart(26, '0')}` },
    };
    this.expander = {
      ...shared,
      claims: meteredStore(new InMemoryPersonClaims(), dynamo),
      queue: setup.queue,
      optOuts: meteredStore(new InMemorySuppressionList(), dynamo),
      touches: new InMemoryTouchStore(),
      contactBook: { pairsOf: async () => new Map() },
      events: { publish: async () => undefined },
      // The invocation's time budget (expand-campaign.ts's 40 s) on the virtual clock.
      budget: { elapsedMs: () => time.nowMs() },
    };
  }

  /**
   * Creates the account's campaign and launches it through the real use case (after the request's
   * own time); resolves with its job id.
   *
   * @example
   * const jobId = await campaigns.launch(account, 'cmp_0', 60);
   */
  async launch(account: SenderAccount, campaignId: string, requestMs: number): Promise<string> {
    await this.campaigns.createCampaign({
      campaignId,
      organizationId: account.organizationId,
      name: campaignId,
      fromPhoneNumber: account.phoneNumber,
      template: { name: CAMPAIGN_TEMPLATE.name, language: CAMPAIGN_TEMPLATE.language, category: 'MARKETING' },
      audience: { audienceIds: ['aud_all'] },
      values: { templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'SPRING25'] },
      createdAt: CREATED_AT,
      updatedAt: CREATED_AT,
    });
    await this.setup.time.sleep(requestMs);
    const launched = await launchCampaign(this.launcher, { organizationId: account.organizationId }, campaignId);
    return launched.jobId;
  }

  /** The ExpansionQueue adapter: an SQS round trip, then the message on the queue model (the organization its group). */
  private expansionQueue(): ExpansionQueue {
    const { time, random } = this.setup;
    return {
      enqueueExpansion: async (message: ExpansionMessage, delaySeconds = 0) => {
        await time.sleep(logNormal(random, 8, 0.3));
        this.setup.expansions.send([encodeExpansionMessage(message)], message.organizationId, delaySeconds);
      },
    };
  }

  /**
   * The campaign expander's Lambda: each record through the real record handler; one that throws
   * is counted and comes back after the handler's redelivery delay (it resumes from its checkpoint).
   */
  expanderHandler(): BatchHandler<string> {
    const { expansions, random } = this.setup;
    const redelivery = { queue: { defer: async (handle: string, seconds: number) => expansions.changeVisibility(handle, seconds) }, random };
    return async (messages) => {
      const failedIds: number[] = [];
      for (const message of messages) {
        const record = {
          body: message.body,
          receiptHandle: `${message.id}:${expansions.receiptOf(message.id) ?? 0}`,
          attributes: { ApproximateReceiveCount: String(message.receiveCount) },
        } as unknown as SQSRecord;
        await handleExpansionRecord(this.expander, record, redelivery).catch((error: unknown) => {
          this.failures.push(error);
          failedIds.push(message.id);
        });
      }
      return { failedIds };
    };
  }
}
