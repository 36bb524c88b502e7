/**
 * A campaign: one send of one template to the members of saved audiences (and the organization's
 * v1 contacts), of any size, each message's values filled from what the business knows about the
 * person (docs/CAMPAIGNS.md). It runs as one broadcast job (`jobId`, kind `template`, with
 * `campaignId`) whose recipients the campaign expander appends page by page; the job's summary,
 * recipients list, pause, cancel and follow-ups are the campaign's.
 */
import type { CampaignValues } from './campaign-values';
import type { AudienceSpec } from './audience-filter';
import type { CampaignHoldout } from './campaign-holdout';
import type { SendRules } from '../send-rules/send-rules.schema';
import type { CanaryProgress, HaltWatch } from './canary-progress';

/** Every state a campaign reads as (the `state` filter of GET /campaigns accepts exactly these). */
export const CAMPAIGN_STATES = [
  'DRAFT',
  'SCHEDULED',
  'LAUNCHING',
  'SENDING',
  'WAITING_FOR_LIMIT',
  'PAUSED',
  'COMPLETED',
  'COMPLETED_WITH_FAILURES',
  'CANCELLED',
  'FAILED',
] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

/** `cmp_` and a time-ordered id. */
export const CAMPAIGN_ID_PREFIX = 'cmp';
export const isCampaignIdShape = (campaignId: string): boolean => /^cmp_[A-Za-z0-9_-]{1,64}$/.test(campaignId);

/** What expansion met, by what became of each member read (docs/CAMPAIGNS.md "Counts"). */
export interface ExpansionCounts {
  /** Members read from the audiences (a person in two audiences counted twice). */
  members: number;
  /** A person already met in this campaign (another audience, another form, a pair). */
  duplicates: number;
  /** In one of `excludeAudienceIds`. */
  excluded: number;
  /** Not matching the filter. */
  filteredOut: number;
  /** On the opt-out list at expansion (listed, FAILED OPTED_OUT, never sent). */
  optedOut: number;
  /** Without an attribute a value needs and no fallback (listed, FAILED MISSING_ATTRIBUTE). */
  missingAttribute: number;
  /** A member whose values Meta would refuse (e.g. too long once filled): listed, FAILED INVALID_PARAMETER. */
  invalid: number;
  /** Queued to send. */
  sendable: number;
  /** Sendable but drawn into the campaign's holdout (campaign-holdout.ts): listed HELD_OUT, never sent. */
  heldOut: number;
}

export const emptyExpansionCounts = (): ExpansionCounts => ({
  members: 0,
  duplicates: 0,
  excluded: 0,
  filteredOut: 0,
  optedOut: 0,
  missingAttribute: 0,
  invalid: 0,
  sendable: 0,
  heldOut: 0,
});

/** Where the expander stands; written with each checkpoint, so a crash or redelivery resumes there. */
export interface ExpansionProgress {
  status: 'running' | 'waiting' | 'done';
  /** Which of the campaign's audiences (`audience.audienceIds`) is being read. */
  audienceIndex: number;
  /** The next page of that audience (absent: its first page). */
  cursor?: string;
  /** The job recipient index the next sendable or listed person gets. */
  nextIndex: number;
  counts: ExpansionCounts;
  startedAt: string;
  /** While `waiting`: when the messaging limit frees enough to go on (the 24-hour window). */
  waitingUntil?: string;
  finishedAt?: string;
  /** Bumped by each checkpoint: the conditional write that makes two expanders never both advance. */
  version: number;
  /**
   * Members the page at `cursor` reads (absent: not decided yet; the expander decides it from the
   * messaging limit's headroom before reading). Kept, so a page run again is the same page.
   */
  pageSize?: number;
  /** The canary's state (docs/CAMPAIGNS.md "Canary and halt thresholds"); absent without one. */
  canary?: CanaryProgress;
  /** The canary's and halt thresholds' watch (quality to compare with, last look, a halt not yet resumed); absent without either. */
  watch?: HaltWatch;
}

/** A campaign as stored. The state it reads is derived (campaign-state.ts) from this and its job. */
export interface Campaign {
  campaignId: string;
  organizationId: string;
  name: string;
  fromPhoneNumber: string;
  template: { name: string; language: string; category: 'MARKETING' | 'UTILITY' };
  audience: AudienceSpec;
  values: CampaignValues;
  /** ISO with offset as given; launched campaigns fire then (docs/BROADCAST.md "Scheduling" rules). */
  scheduledAt?: string;
  /** The share of the sendable audience held out (docs/OUTCOMES.md "Holdout and lift"); absent: none. */
  holdout?: CampaignHoldout;
  /** Hours after delivery (or, held out, after expansion) an inbound message without context counts for the campaign; absent on campaigns created before it: 72. */
  attributionWindowHours?: number;
  /** Send window, deferral over the cap, canary and halt thresholds (docs/CAMPAIGNS.md); copied to its job at launch. */
  sendRules?: SendRules;
  createdAt: string;
  updatedAt: string;
  /** The credential that created it: scopes reads of minted keys as for jobs. */
  createdByCredentialId?: string;
  /** Set once by the first launch. */
  launchedAt?: string;
  /** The launch's Idempotency-Key hash: a relaunch with the same key answers the same. */
  launchRequestHash?: string;
  /** The campaign's job, from the launch on. */
  jobId?: string;
  /** Set by a cancel before any launch (campaign-controls.ts): it never sends, and a launch is refused. */
  cancelledAt?: string;
  expansion?: ExpansionProgress;
}
