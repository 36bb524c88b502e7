/**
 * The campaigns' ports. Adapters: the messaging table (campaign items and the per-person claims,
 * keys in one module of shared/adapters/dynamodb), the campaign-expansion queue.
 */
import type { Campaign, ExpansionProgress } from './campaign';

export interface CampaignListQuery {
  limit: number;
  cursor?: string;
}

export interface CampaignStore {
  /** Conditional: a campaign id is written once. */
  createCampaign(campaign: Campaign): Promise<void>;
  /** Undefined when the organization has no such campaign (another organization's reads as none). */
  getCampaign(organizationId: string, campaignId: string): Promise<Campaign | undefined>;
  /** Newest first. */
  listCampaigns(organizationId: string, query: CampaignListQuery): Promise<{ campaigns: Campaign[]; nextCursor?: string }>;
  /**
   * Records the launch (launchedAt, jobId, launchRequestHash, the first expansion) unless the campaign
   * was launched already or cancelled before its launch (`cancelledAt`); `launched: false` gives the campaign as stored (the earlier launch).
   */
  markLaunched(
    organizationId: string,
    campaignId: string,
    launch: Required<Pick<Campaign, 'launchedAt' | 'jobId' | 'expansion'>> & Pick<Campaign, 'launchRequestHash'>,
  ): Promise<{ launched: true } | { launched: false; campaign: Campaign | undefined }>;
  /**
   * Cancels a campaign never launched: sets `cancelledAt` unless it was launched (the first cancel's
   * time stays; `markLaunched` then answers `launched: false`). `cancelled: false` gives the campaign as
   * stored: launched meanwhile (its job is cancelled instead), or undefined when there is none.
   */
  cancelUnlaunched(
    organizationId: string,
    campaignId: string,
    at: Date,
  ): Promise<{ cancelled: true; cancelledAt: string } | { cancelled: false; campaign: Campaign | undefined }>;
  /**
   * Writes the expander's checkpoint only if the stored one still has `expectedVersion` (the new one
   * carries `expectedVersion + 1`): false when another delivery advanced it first (this one stops).
   */
  saveExpansion(organizationId: string, campaignId: string, expansion: ExpansionProgress, expectedVersion: number): Promise<boolean>;
}

/**
 * One claim per person per campaign: exactly one message per person, whichever audience, form or
 * identity they were met under. A claim holds the job recipient index it was given.
 */
export interface PersonClaims {
  /**
   * Claims each person for the campaign with the index offered (conditional single-item writes), by
   * person key: the index that holds the person now, `index` itself when this call (or an earlier
   * run of the same page, which offered the same index) claimed them.
   */
  claimPersons(campaignId: string, claims: ReadonlyArray<{ personKey: string; index: number }>): Promise<Map<string, number>>;
}

/** What travels on the campaign-expansion queue: which campaign to expand; where it stands is in its checkpoint. */
export interface ExpansionMessage {
  version: 1;
  organizationId: string;
  campaignId: string;
}

export interface ExpansionQueue {
  /** `delaySeconds` (at most 900, SQS's limit): a campaign waiting for the messaging limit looks again then. */
  enqueueExpansion(message: ExpansionMessage, delaySeconds?: number): Promise<void>;
}
