/**
 * The shapes the console reads from the public broadcast API (docs/BROADCAST.md, DELIVERY-STATUS.md).
 * Only what the pages show; fields built in parallel (cost, followUpOf, the dry run) are optional:
 * shown when present, hidden when absent.
 */
import type { Lift } from '../../shared/outcomes/lift';
import type { TemplateRequirements } from '../../shared/templates/template-requirements';
import type { SendRules } from '../../shared/send-rules/send-rules.schema';
import type { CanaryView, PauseShown, SendWindowPlan, WaitingCounts } from './respect-types';
export type JobStatus = 'SCHEDULED' | 'QUEUED_FOR_PROCESSING' | 'PROCESSING' | 'PAUSED' | 'COMPLETED' | 'COMPLETED_WITH_FAILURES' | 'FAILED' | 'CANCELLED';

export const RECIPIENT_STATUSES = [
  'PENDING',
  'SENT',
  'DELIVERED',
  'READ',
  'FAILED',
  'UNKNOWN',
  'UNCONFIRMED',
  'CANCELLED',
  'HELD',
  'HELD_OUT',
  'WAITING',
] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export interface CostByCategory {
  billed: number;
  amount: string;
}

/** The status summary's cost (shapes26: absent with no rate card). */
export interface JobCost {
  currency: string;
  billed: number;
  amount: string;
  byCategory?: Record<string, CostByCategory>;
  /** Issue 38: the amount divided by the replied / clicked count (decimal strings), absent when the count is 0. */
  perReply?: string;
  perClick?: string;
}

/** Taps on one quick-reply button (issue 38): its index in the template (-1: none matched) and the payload tapped. */
export interface ButtonTaps {
  index: number;
  payload: string;
  taps: number;
}

/**
 * What recipients did after the send (issue 38, docs/OUTCOMES.md), on a job's summary and a campaign's
 * totals: absent on a job from before outcomes existed (the console then shows nothing, not zeros).
 */
export interface OutcomeTotals {
  /** Recipients with an attributed reply. */
  replied?: number;
  /** Recipients with a counted click on their tracked link (unique people). */
  clicked?: number;
  buttons?: ButtonTaps[];
  /** STOP replies attributed to the job (opt-outs). */
  repliedByStop?: number;
  /** Campaign holdout: members never sent, status HELD_OUT (present when any). */
  heldOut?: number;
}

/** A campaign's lift over its held-out group (docs/OUTCOMES.md "Holdout and lift"): the service's own type. Rates are fractions (0.1 = 10 %). */
export type CampaignLift = Lift;

export interface JobSummary extends OutcomeTotals, WaitingCounts {
  sent: number;
  failed: number;
  unknown: number;
  pending: number;
  chunksDone: number;
  chunksTotal: number;
  failuresByReason: Record<string, number>;
  delivered: number;
  read: number;
  unconfirmed: number;
  cancelled?: number;
  held?: number;
  cost?: JobCost;
  /** Issue 38: a campaign job's lift over its held-out group. */
  lift?: CampaignLift | null;
}

export interface JobStatusView {
  jobId: string;
  status: JobStatus;
  totalRecipients: number;
  totalChunks: number;
  summary: JobSummary;
  route?: string;
  followUpOf?: string;
  pause?: PauseShown;
  cancelRequestedAt?: string;
}

export interface BroadcastListItem {
  jobId: string;
  kind: string;
  broadcastName: string | null;
  fromPhoneNumber: string;
  template: { name: string; language: string } | null;
  status: JobStatus;
  totalRecipients: number;
  summary: JobSummary;
  createdAt: string;
  finishedAt: string | null;
  scheduledAt: string | null;
  followUpOf?: string;
}

export interface BroadcastsPage {
  broadcasts: BroadcastListItem[];
  nextCursor: string | null;
}

export interface RecipientRow {
  countryCode: string;
  toPhoneNumber: string;
  userId?: string;
  status: RecipientStatus;
  messageId: string | null;
  failureReasonCode: string | null;
  failureReason: string | null;
  updatedAt: string | null;
  sentVia?: string;
  pricing?: { category: string; billable: boolean };
  /** shapes26: per billed recipient, when the rate card prices it. */
  cost?: { currency: string; amount: string };
  /** Issue 38: the first attributed reply, the first button tapped, the first counted click and the clicks. */
  repliedAt?: string | null;
  buttonPayload?: string | null;
  firstClickAt?: string | null;
  clicks?: number | null;
  /** Issue 39: a WAITING recipient's next chance (its window's opening, or when the cap allows). */
  waitingUntil?: string | null;
}

export interface RecipientsPage {
  recipients: RecipientRow[];
  nextCursor: string | null;
}

/** One row of failure-codes.json, built from shared/sending/failure-reasons.ts. */
export interface ReasonRow {
  code: string;
  retry?: string;
  text: string;
  action: string;
}

/** The dry run's answer (shapes26). */
export interface DryRunAnswer {
  dryRun: true;
  totals: { received: number; sendable: number; optedOut: number; duplicates: number; invalid: number };
  invalid?: Array<{ index: number; field: string; rule: string }>;
  messagingLimit?: { tier: string; limit: number | null; usedLast24h: number; headroom: number | null };
  estimatedCost?: { currency: string; amount: string; priced: number; unpriced: number; byCategory?: Record<string, { count: number; amount: string }> };
  sendWindow?: SendWindowPlan;
}

/** The follow-up's accept (shapes26): the broadcast accept plus `followUpOf` and `audience`. */
export interface FollowUpAccepted {
  jobId?: string;
  followUpOf?: string;
  audience?: { matched: number; optedOut: number };
}

/** Every state a campaign reads as (docs/CAMPAIGNS.md; GET /campaigns?state= accepts exactly these). */
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

/** A campaign's counts across its whole audience, by the rules of a job's summary (`sent` includes delivered and read). */
export interface CampaignTotals extends OutcomeTotals, WaitingCounts {
  audience: number;
  sendable: number;
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  unknown: number;
  optedOut: number;
  skipped: number;
  cancelled: number;
}

/** Members left out at expansion, by why (docs/CAMPAIGNS.md "Counts"). */
export interface SkippedByReason {
  DUPLICATE: number;
  EXCLUDED: number;
  FILTERED_OUT: number;
  MISSING_ATTRIBUTE: number;
  INVALID_PARAMETER: number;
}

/** `GET /campaigns/{campaignId}` (and each entry of `GET /campaigns`): null for what has not happened yet. */
export interface CampaignView {
  campaignId: string;
  name: string;
  state: CampaignState;
  fromPhoneNumber: string;
  template: { name: string; language: string; category: string };
  audience: { audienceIds: string[]; excludeAudienceIds?: string[]; filter?: unknown };
  totals: CampaignTotals;
  skippedByReason?: Partial<SkippedByReason>;
  failuresByCode: Record<string, number>;
  cost?: JobCost | null;
  /** Issue 38: present for a campaign with a holdout. */
  lift?: CampaignLift | null;
  /** Issue 38: the campaign's holdout and attribution window, as created. */
  holdout?: { percent: number } | null;
  attributionWindowHours?: number;
  jobId: string | null;
  createdAt: string;
  launchedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  scheduledAt?: string | null;
  /** WAITING_FOR_LIMIT: when the messaging limit's 24-hour window frees enough to go on. */
  waitingUntil?: string | null;
  /** PAUSED: who paused it (`user`, or the platform's own pauses as for jobs) and why. */
  pause?: PauseShown | null;
  /** Issue 39: the canary's state, slice, watch and verdict (a launched campaign with `canary`). */
  canary?: CanaryView | null;
  /** Issue 39: the send window, deferCapped, canary and halt thresholds, as given. */
  sendRules?: Partial<SendRules>;
}

export interface CampaignsPage {
  campaigns: CampaignView[];
  nextCursor: string | null;
}

/** The answer of POST /campaigns/{campaignId}/pause, /resume and /cancel. */
export interface CampaignControlAnswer {
  campaignId: string;
  state: CampaignState;
}

/** `GET /phone-numbers`: the organization's senders (the contract's snake_case). */
export interface PhoneNumberEntry {
  phone_number: string;
  waba_id: string;
  phone_number_id: string;
}

/** What a send of a template needs (`parameters` of GET /templates): the server's own type, pure data. */
export type { TemplateRequirements } from '../../shared/templates/template-requirements';

/** One entry of `GET /templates?phone_number=` (the sender's APPROVED templates). */
export interface TemplateView {
  name: string;
  status: string;
  category: string;
  language: string;
  quality?: string;
  components: Array<{ type: string; text?: string }>;
  parameters: TemplateRequirements;
  maxPrice?: { bidAmount: string; bidStrategy?: string };
  /** Meta's reason for a REJECTED template (only in the `status=all` list). */
  rejectedReason?: string;
}

/** An entry of `GET /audiences` (docs/CAMPAIGNS.md "Audiences"). */
export interface AudienceSummary {
  audienceId: string;
  name: string;
  memberCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface AudiencesPage {
  audiences: AudienceSummary[];
  nextCursor: string | null;
}

/** `GET /audiences/{audienceId}`: the opted-out count is computed on each read. */
export interface AudienceDetail extends AudienceSummary {
  optedOutCount: number;
  byCountry: Record<string, number>;
}

/** One member as `GET /audiences/{audienceId}/members` lists it. */
export interface AudienceMemberRow {
  countryCode: string;
  toPhoneNumber: string;
  userId?: string;
  attributes: Record<string, string | number | boolean>;
  tags: string[];
  updatedAt: string;
}

export interface MembersPage {
  members: AudienceMemberRow[];
  nextCursor: string | null;
}

/** `POST /audiences/{audienceId}/members`: `index` of `invalid` is the row's index in that request's `members`. */
export interface MembersWritten {
  added: number;
  updated: number;
  invalid: Array<{ index: number; field: string; rule: string }>;
}

/** `POST /campaigns/{campaignId}/launch?dryRun=true` (docs/CAMPAIGNS.md "Dry run"). */
export interface CampaignDryRunAnswer {
  audience: { members: number; duplicates: number; optedOut: number; excluded: number; filteredOut: number; missingAttribute: number; invalid: number };
  sendable: number;
  estimatedCost?: {
    currency: string;
    amount: string;
    priced: number;
    unpriced: number;
    byCategory: Record<string, { count: number; amount: string }>;
    upTo?: true;
  };
  messagingLimit: { tier: string; headroom: number | null; plan: Array<{ from: string; recipients: number }> };
  sample: Array<Record<string, unknown>>;
  estimated: boolean;
  membersRead: number;
  /** Issue 39: with a send window, how many go now and when the rest go. */
  sendWindow?: SendWindowPlan;
}

/** `POST /campaigns` (201). */
export interface CampaignCreated {
  campaignId: string;
  name: string;
  state: CampaignState;
  createdAt: string;
}
