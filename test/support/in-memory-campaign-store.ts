import type { Campaign, ExpansionProgress } from '../../shared/campaigns/campaign';
import type { CampaignListQuery, CampaignStore, ExpansionMessage, ExpansionQueue, PersonClaims } from '../../shared/campaigns/ports';

const clone = <T>(value: T): T => structuredClone(value);

/** The campaign store in memory, with the DynamoDB adapter's semantics (conditional launch and checkpoint writes). */
export class InMemoryCampaignStore implements CampaignStore {
  readonly campaigns = new Map<string, Campaign>();
  checkpointWrites = 0;

  async createCampaign(campaign: Campaign): Promise<void> {
    const key = `${campaign.organizationId}|${campaign.campaignId}`;
    if (this.campaigns.has(key)) throw new Error(`campaign ${campaign.campaignId} exists`);
    this.campaigns.set(key, clone(campaign));
  }

  async getCampaign(organizationId: string, campaignId: string): Promise<Campaign | undefined> {
    const stored = this.campaigns.get(`${organizationId}|${campaignId}`);
    return stored && clone(stored);
  }

  async listCampaigns(organizationId: string, query: CampaignListQuery): Promise<{ campaigns: Campaign[]; nextCursor?: string }> {
    const all = [...this.campaigns.values()]
      .filter((campaign) => campaign.organizationId === organizationId)
      .sort((a, b) => (a.createdAt === b.createdAt ? b.campaignId.localeCompare(a.campaignId) : b.createdAt.localeCompare(a.createdAt)));
    const start = query.cursor === undefined ? 0 : Number(query.cursor);
    const page = all.slice(start, start + query.limit).map(clone);
    return start + query.limit < all.length ? { campaigns: page, nextCursor: String(start + query.limit) } : { campaigns: page };
  }

  async markLaunched(
    organizationId: string,
    campaignId: string,
    launch: Required<Pick<Campaign, 'launchedAt' | 'jobId' | 'expansion'>> & Pick<Campaign, 'launchRequestHash'>,
  ): Promise<{ launched: true } | { launched: false; campaign: Campaign | undefined }> {
    const stored = this.campaigns.get(`${organizationId}|${campaignId}`);
    if (!stored || stored.launchedAt !== undefined || stored.cancelledAt !== undefined) return { launched: false, campaign: stored && clone(stored) };
    Object.assign(stored, clone(launch), { updatedAt: launch.launchedAt });
    return { launched: true };
  }

  async cancelUnlaunched(
    organizationId: string,
    campaignId: string,
    at: Date,
  ): Promise<{ cancelled: true; cancelledAt: string } | { cancelled: false; campaign: Campaign | undefined }> {
    const stored = this.campaigns.get(`${organizationId}|${campaignId}`);
    if (!stored || stored.launchedAt !== undefined) return { cancelled: false, campaign: stored && clone(stored) };
    if (stored.cancelledAt === undefined) Object.assign(stored, { cancelledAt: at.toISOString(), updatedAt: at.toISOString() });
    return { cancelled: true, cancelledAt: stored.cancelledAt! };
  }

  async saveExpansion(organizationId: string, campaignId: string, expansion: ExpansionProgress, expectedVersion: number): Promise<boolean> {
    const stored = this.campaigns.get(`${organizationId}|${campaignId}`);
    if (!stored || stored.expansion?.version !== expectedVersion) return false;
    stored.expansion = clone(expansion);
    this.checkpointWrites += 1;
    return true;
  }
}

/** Person claims in memory: the first index offered for a person holds them. */
export class InMemoryPersonClaims implements PersonClaims {
  readonly claims = new Map<string, number>();
  writes = 0;

  async claimPersons(campaignId: string, claims: ReadonlyArray<{ personKey: string; index: number }>): Promise<Map<string, number>> {
    const held = new Map<string, number>();
    for (const { personKey, index } of claims) {
      const key = `${campaignId}|${personKey}`;
      if (!this.claims.has(key)) {
        this.claims.set(key, index);
        this.writes += 1;
      }
      held.set(personKey, this.claims.get(key)!);
    }
    return held;
  }
}

/** The campaign-expansion queue in memory: what was queued, with its delay. */
export class InMemoryExpansionQueue implements ExpansionQueue {
  readonly queued: Array<{ message: ExpansionMessage; delaySeconds: number }> = [];

  async enqueueExpansion(message: ExpansionMessage, delaySeconds = 0): Promise<void> {
    this.queued.push({ message: clone(message), delaySeconds });
  }
}
