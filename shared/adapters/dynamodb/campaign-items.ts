/**
 * Campaign items of the messaging table: their keys and item shapes (docs/DATA-MODEL.md
 * "Campaigns"). The messaging table's other keys are in messaging-table.ts; these are kept apart
 * because nothing else reads them.
 *
 *   pk CAMPAIGN#<org>#<campaignId>       sk CAMPAIGN   a campaign (+ gsi1: ORG#<org>#CAMPAIGNS / createdAt)
 *   pk CAMPCLAIM#<campaignId>#<person>   sk CLAIM      one person's claim in a campaign: the job
 *                                                      recipient index that holds them
 *
 * The organization is part of a campaign's key, so another organization's campaign id reads as
 * absent without a check. A campaign item gets `expiresAt` (the job's retention) when it is
 * launched: a draft is kept until it is launched; a launched campaign goes with its job. Claims
 * expire with the job too.
 */
import { sendRulesSchema } from '../../send-rules/send-rules.schema';
import * as v from 'valibot';
import type { Campaign } from '../../campaigns/campaign';
import { audienceSpecSchema } from '../../campaigns/audience-filter';
import { canaryProgressSchema, haltWatchSchema } from '../../campaigns/canary-progress';
import { MalformedMessagingItemError, expiresAtFrom } from './messaging-table';

type Item = Record<string, unknown>;

export const campaignKeys = {
  campaign: (organizationId: string, campaignId: string) => ({ pk: `CAMPAIGN#${organizationId}#${campaignId}`, sk: 'CAMPAIGN' }),
  /** gsi1 of a campaign: an organization's campaigns by time (as jobs: ORG#<org>#JOBS). */
  organizationCampaigns: (organizationId: string, createdAt: string) => ({ gsi1pk: `ORG#${organizationId}#CAMPAIGNS`, gsi1sk: createdAt }),
  /** One partition per claim: a page's claims spread over the table, none is hot. */
  personClaim: (campaignId: string, personKey: string) => ({ pk: `CAMPCLAIM#${campaignId}#${personKey}`, sk: 'CLAIM' }),
} as const;

/* ------------------------------------------------------------ campaigns */

/** The campaign item as written at create (no TTL until launch). */
export function campaignItem(campaign: Campaign): Item {
  return {
    ...campaignKeys.campaign(campaign.organizationId, campaign.campaignId),
    ...campaign,
    ...campaignKeys.organizationCampaigns(campaign.organizationId, campaign.createdAt),
  };
}

/** A launched campaign lives as long as its job (and its claims). */
export const campaignExpiresAt = (launchedAt: string): number => expiresAtFrom(new Date(launchedAt));

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const text = v.string();

const expansionCountsSchema = v.object({
  members: count,
  duplicates: count,
  excluded: count,
  filteredOut: count,
  optedOut: count,
  missingAttribute: count,
  invalid: count,
  sendable: count,
  /** Absent on checkpoints written before holdouts: none. */
  heldOut: v.optional(count, 0),
});

export const storedExpansionSchema = v.object({
  status: v.picklist(['running', 'waiting', 'done']),
  audienceIndex: count,
  cursor: v.optional(text),
  nextIndex: count,
  counts: expansionCountsSchema,
  startedAt: text,
  waitingUntil: v.optional(text),
  finishedAt: v.optional(text),
  version: count,
  pageSize: v.optional(count),
  canary: v.optional(canaryProgressSchema),
  watch: v.optional(haltWatchSchema),
});

// Values were checked at create (campaign-request.schema.ts); stored, they are kept as JSON as written.
const storedValuesSchema = v.object({
  templateParams: v.optional(v.union([v.array(v.unknown()), v.record(v.string(), v.unknown())])),
  header: v.optional(v.unknown()),
  buttons: v.optional(v.array(v.unknown())),
  carousel: v.optional(v.array(v.unknown())),
  limitedTimeOffer: v.optional(v.unknown()),
});

const storedCampaignSchema = v.object({
  campaignId: text,
  organizationId: text,
  name: text,
  fromPhoneNumber: text,
  template: v.object({ name: text, language: text, category: v.picklist(['MARKETING', 'UTILITY']) }),
  audience: audienceSpecSchema,
  values: storedValuesSchema,
  scheduledAt: v.optional(text),
  holdout: v.optional(v.object({ percent: v.number() })),
  attributionWindowHours: v.optional(count),
  sendRules: v.optional(sendRulesSchema),
  createdAt: text,
  updatedAt: text,
  createdByCredentialId: v.optional(text),
  launchedAt: v.optional(text),
  launchRequestHash: v.optional(text),
  jobId: v.optional(text),
  cancelledAt: v.optional(text),
  expansion: v.optional(storedExpansionSchema),
});

/**
 * The campaign of a stored item; a malformed item is an error here, never a wrongly typed value further on.
 *
 * @example
 * const campaign = decodeCampaign(result.Item);
 */
export function decodeCampaign(item: Item): Campaign {
  const result = v.safeParse(storedCampaignSchema, item);
  if (!result.success)
    throw new MalformedMessagingItemError(`Stored campaign ${String(item.pk)} does not match the campaign schema: ${v.summarize(result.issues)}`);
  const { values, ...campaign } = result.output;
  return { ...campaign, values: Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) };
}

/* --------------------------------------------------------------- cursor */

/** Where a listing of an organization's campaigns continues: the last campaign read. */
export interface CampaignListPosition {
  createdAt: string;
  campaignId: string;
}

export const encodeCampaignCursor = (position: CampaignListPosition): string =>
  Buffer.from(JSON.stringify({ c: position.createdAt, i: position.campaignId })).toString('base64url');

/** Undefined for text that is not a cursor this store wrote. */
export function decodeCampaignCursor(cursor: string): CampaignListPosition | undefined {
  try {
    const { c, i } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { c?: unknown; i?: unknown };
    return typeof c === 'string' && typeof i === 'string' && i.length > 0 ? { createdAt: c, campaignId: i } : undefined;
  } catch {
    return undefined;
  }
}

/** The index key after which a listing of an organization's campaigns continues (gsi1 + the table's key). */
export function organizationCampaignsStartKey(organizationId: string, after: CampaignListPosition): Item {
  return { ...campaignKeys.organizationCampaigns(organizationId, after.createdAt), ...campaignKeys.campaign(organizationId, after.campaignId) };
}

/* --------------------------------------------------------------- claims */

export function personClaimItem(campaignId: string, personKey: string, index: number, expiresAt: number): Item {
  return { ...campaignKeys.personClaim(campaignId, personKey), index, expiresAt };
}

export function decodeClaimIndex(item: Item): number {
  const index = item.index;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) throw new MalformedMessagingItemError(`Stored claim ${String(item.pk)} has no index`);
  return index;
}
